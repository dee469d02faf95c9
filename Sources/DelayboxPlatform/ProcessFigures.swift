import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// This process's own figures from /proc, for the log and the console's `stats`: how
/// long it has existed, the CPU it used, the memory it holds.
public enum ProcessFigures {
    /// Seconds since the kernel started the process (before the dynamic linker loaded
    /// FFmpeg and the rest, so start-up figures include everything a listener waits for),
    /// or nil where /proc cannot tell.
    public static func ageSeconds() -> Double? {
        // Field 22 of /proc/self/stat: start time after boot, in clock ticks; the clock
        // that counts it is CLOCK_BOOTTIME.
        guard let fields = statFields(), fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// User plus system CPU time of all threads so far (s).
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(
            usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Resident memory now (bytes), from /proc/self/statm.
    public static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// The fields of /proc/self/stat after the command name (field 3 onwards).
    private static func statFields() -> [Substring]? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        return stat[stat.index(after: close)...].split(separator: " ")
    }
}

/// The machine's memory, from /proc/meminfo.
public enum SystemMemory {
    /// `MemTotal` (bytes), nil where /proc cannot tell.
    public static func totalBytes() -> Int64? {
        guard let text = try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("MemTotal:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int64($0) })
        else { return nil }
        return kilobytes * 1_024
    }
}
