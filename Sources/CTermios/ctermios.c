#define _GNU_SOURCE
#include "ctermios.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int dbx_open_pseudo_terminal(char *path, size_t length) {
    int fd = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return -1;
    if (grantpt(fd) != 0 || unlockpt(fd) != 0 || ptsname_r(fd, path, length) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}
