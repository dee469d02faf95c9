#ifndef DELAYBOX_CTERMIOS_H
#define DELAYBOX_CTERMIOS_H
#include <stddef.h>

/// Opens a new pseudo-terminal (posix_openpt, grantpt, unlockpt), writes the path of its
/// other side into `path` and returns the master's descriptor, or -1 with errno set.
/// (These need _XOPEN_SOURCE, which Swift's Glibc module does not define.)
int dbx_open_pseudo_terminal(char *path, size_t length);

#endif
