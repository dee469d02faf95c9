#define _GNU_SOURCE
#include "cinput.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int dbx_input_open(const char *path, int grab) {
    int descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (descriptor < 0) return -1;
    int clock = CLOCK_MONOTONIC;
    if (ioctl(descriptor, EVIOCSCLOCKID, &clock) < 0 || (grab && ioctl(descriptor, EVIOCGRAB, 1) < 0)) {
        int saved = errno;
        close(descriptor);
        errno = saved;
        return -1;
    }
    return descriptor;
}

int dbx_input_name(int descriptor, char *buffer, int size) {
    int length = ioctl(descriptor, EVIOCGNAME(size), buffer);
    if (length < 0) return -1;
    buffer[size - 1] = 0;
    return length;
}

int dbx_input_read_keys(int descriptor, struct dbx_key_event *keys, int max) {
    struct input_event events[64];
    int count = 0;
    int dropping = 0;
    while (count < max) {
        // No more events than there is room for: each may be a key.
        size_t room = (size_t)(max - count) < 64 ? (size_t)(max - count) : 64;
        ssize_t got = read(descriptor, events, room * sizeof events[0]);
        if (got < 0) {
            if (errno == EAGAIN || errno == EINTR) break;
            return -1;
        }
        if (got == 0) break;
        for (size_t i = 0; i < (size_t)got / sizeof events[0]; i++) {
            // The kernel's buffer overflowed: events were lost, and those up to the next
            // SYN_REPORT are partial (evdev's rule). Said as one "lost" key (code -1,
            // value -1), so that a key whose release was lost is not taken as held.
            if (events[i].type == EV_SYN && events[i].code == SYN_DROPPED) {
                dropping = 1;
                keys[count].code = -1;
                keys[count].value = -1;
                keys[count].nanoseconds = (long long)events[i].input_event_sec * 1000000000LL + (long long)events[i].input_event_usec * 1000LL;
                count++;
                if (count >= max) break;
                continue;
            }
            if (dropping) {
                if (events[i].type == EV_SYN && events[i].code == SYN_REPORT) dropping = 0;
                continue;
            }
            if (events[i].type != EV_KEY) continue;
            keys[count].code = events[i].code;
            keys[count].value = events[i].value;
            keys[count].nanoseconds = (long long)events[i].input_event_sec * 1000000000LL + (long long)events[i].input_event_usec * 1000LL;
            count++;
        }
    }
    return count;
}
