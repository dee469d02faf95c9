#ifndef DELAYBOX_CALSA_H
#define DELAYBOX_CALSA_H
#include <alsa/asoundlib.h>

/// Routes alsa-lib's own error lines (which it prints to stderr by default) into a
/// per-thread buffer, so the adapter can attach them to the failed call's error.
/// (ALSA's error handler is variadic, which Swift cannot implement.)
void dbx_alsa_capture_errors(void);

/// The last error line alsa-lib reported on this thread ("" if none), and clears it.
/// Valid until the next ALSA call on this thread.
const char *dbx_alsa_take_last_error(void);

#endif
