import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How long this process has existed, counted from when the kernel started it (before
/// the dynamic linker loaded FFmpeg and the rest), so that start-up figures such as
/// "first audio after N s" include everything a listener waits for.
enum ProcessAge {
    /// Seconds since the process started, or nil where /proc cannot tell.
    static func seconds() -> Double? {
        // Field 22 of /proc/self/stat: start time after boot, in clock ticks; the clock
        // that counts it is CLOCK_BOOTTIME.
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9 - ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
