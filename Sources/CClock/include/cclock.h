#ifndef DELAYBOX_CCLOCK_H
#define DELAYBOX_CCLOCK_H

/// Whether the kernel says the wall clock is synchronised (adjtimex: not TIME_ERROR, so
/// STA_UNSYNC is clear): 1 yes, 0 no, -1 when it cannot be asked. (sys/timex.h is not in
/// Swift's Glibc module.)
int delaybox_clock_synchronised(void);

#endif
