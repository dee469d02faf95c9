// A disk that takes its time (issue 44): LD_PRELOAD this library and every fsync and
// fdatasync first sleeps DELAYBOX_SLOW_FSYNC_MS (default 1000), then syncs; each call is
// counted as a line appended to DELAYBOX_FSYNC_LOG when set. With
// DELAYBOX_FSYNC_FAIL_DIRECTORIES set, an fsync of a directory fails with EIO (a rename
// that may not survive a power cut). SlowDiskTests builds it with the host's cc and runs
// the box over it.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static void slowly(const char *what) {
    const char *ms = getenv("DELAYBOX_SLOW_FSYNC_MS");
    long wait = ms ? atol(ms) : 1000;
    struct timespec pause = { wait / 1000, (wait % 1000) * 1000000L };
    nanosleep(&pause, NULL);
    const char *log = getenv("DELAYBOX_FSYNC_LOG");
    if (log) {
        int file = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (file >= 0) {
            ssize_t ignored = write(file, what, strlen(what));
            (void)ignored;
            close(file);
        }
    }
}

int fsync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    slowly("fsync\n");
    struct stat status;
    if (getenv("DELAYBOX_FSYNC_FAIL_DIRECTORIES") && fstat(fd, &status) == 0 && S_ISDIR(status.st_mode)) {
        errno = EIO;
        return -1;
    }
    return real(fd);
}

int fdatasync(int fd) {
    static int (*real)(int);
    if (!real) real = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    slowly("fdatasync\n");
    return real(fd);
}
