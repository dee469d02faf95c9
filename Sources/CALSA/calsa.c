#include "calsa.h"
#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[512];

static void capture(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)err;
    int used = snprintf(last_error, sizeof last_error, "%s: ", function ? function : "alsa");
    if (used < 0 || (size_t)used >= sizeof last_error) used = 0;
    va_list args;
    va_start(args, fmt);
    vsnprintf(last_error + used, sizeof last_error - (size_t)used, fmt, args);
    va_end(args);
}

void dbx_alsa_capture_errors(void) { snd_lib_error_set_handler(capture); }

const char *dbx_alsa_take_last_error(void) {
    static _Thread_local char taken[512];
    snprintf(taken, sizeof taken, "%s", last_error);
    last_error[0] = 0;
    return taken;
}
