import CClock

#if canImport(Glibc)
    import Glibc
#endif

/// The wall clock (Unix time), and whether it can be believed. A Pi has no real-time clock:
/// after a power cut it starts from the time fake-hwclock saved at the last shutdown, hours
/// or days old, until the network time arrives. The kernel knows which: whoever keeps the
/// time (systemd-timesyncd, chrony, ntpd) clears `STA_UNSYNC` once it has set it, and
/// `adjtimex` then answers `TIME_OK` — what `timedatectl`'s "System clock synchronized"
/// reads.
public enum WallClock {
    /// Now (Unix time, s).
    public static func unixTime() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Now (Unix time, s) when the kernel says the clock is synchronised; nil until then.
    public static func synchronisedUnixTime() -> Double? { isSynchronised() ? unixTime() : nil }

    public static func isSynchronised() -> Bool { delaybox_clock_synchronised() == 1 }

    /// The minute of the local day (0..<1440) at `unixTime`, in the system's time zone.
    public static func localMinuteOfDay(unixTime: Double) -> Int {
        var seconds = time_t(unixTime.rounded(.down))
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        return Int(local.tm_hour) * 60 + Int(local.tm_min)
    }
}
