#ifndef DELAYBOX_CSYSTEM_H
#define DELAYBOX_CSYSTEM_H

/// A non-blocking, close-on-exec eventfd (sys/eventfd.h is not in Swift's Glibc module):
/// the one wake-up a thread waiting in poll is sent. -1 with errno set on failure.
int dbx_system_eventfd(void);

#endif
