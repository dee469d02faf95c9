#include "cclock.h"
#include <sys/timex.h>

int delaybox_clock_synchronised(void) {
    struct timex state = {0};  // modes 0: only read
    int answer = adjtimex(&state);
    if (answer < 0) return -1;
    return answer != TIME_ERROR && !(state.status & STA_UNSYNC);
}
