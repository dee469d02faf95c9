#ifndef DELAYBOX_CINPUT_H
#define DELAYBOX_CINPUT_H

/// One key event of an evdev device: what Delaybox reads of `struct input_event`, whose
/// time field differs by architecture and time_t size (hidden here).
struct dbx_key_event {
    int code;
    /// 1 pressed, 2 autorepeat, 0 released; -1 (code -1): events were lost (SYN_DROPPED).
    int value;
    /// The event's time (ns) on the clock `dbx_input_open` chose: CLOCK_MONOTONIC.
    long long nanoseconds;
};

/// Opens an evdev device read-only, non-blocking and close-on-exec, has it stamp events on
/// CLOCK_MONOTONIC (EVIOCSCLOCKID: the clock the box's timers run on) and, when `grab`,
/// takes it for itself (EVIOCGRAB: its keys stop reaching the console's keyboard, so a
/// remote's digits do not type into a login prompt). Returns the descriptor, or -1 with errno.
int dbx_input_open(const char *path, int grab);

/// The device's name (EVIOCGNAME) into `buffer`; -1 with errno.
int dbx_input_name(int descriptor, char *buffer, int size);

/// Reads what the device holds now: its key events (EV_KEY) into `keys`, at most `max`.
/// Returns how many, 0 when none were waiting, -1 with errno (ENODEV: the device is gone).
int dbx_input_read_keys(int descriptor, struct dbx_key_event *keys, int max);

#endif
