import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU time and resident memory of another process, from /proc (all its threads).
struct ProcessSample {
    /// Two processes started side by side, sampled together `seconds` after `started`
    /// (sleeping until then).
    static func pair(_ a: Process, _ b: Process, at seconds: Double, since started: Date) throws -> (ProcessSample, ProcessSample) {
        Thread.sleep(forTimeInterval: max(0, seconds - Date().timeIntervalSince(started)))
        guard let first = ProcessSample(pid: a.processIdentifier), let second = ProcessSample(pid: b.processIdentifier) else {
            throw Bench.BenchError("a process ended early")
        }
        return (first, second)
    }

    /// User plus system CPU time so far (s).
    var cpuSeconds: Double
    /// Resident set size (bytes).
    var residentBytes: Int
    /// The largest resident set size so far (bytes).
    var peakResidentBytes: Int

    /// Reads the process `pid`; nil when it is gone.
    init?(pid: Int32) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name: state is field 3; utime and stime are 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        cpuSeconds = (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        func kilobytes(_ field: String) -> Int {
            let line = status.split(separator: "\n").first { $0.hasPrefix(field) }
            return (line?.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0) * 1_024
        }
        residentBytes = kilobytes("VmRSS:")
        peakResidentBytes = kilobytes("VmHWM:")
    }
}
