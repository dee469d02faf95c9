import DelayboxTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// CPU time and resident memory of another process, from /proc (all its threads).
struct ProcessSample {
    /// Two processes started side by side, sampled together `seconds` after `started`
    /// (sleeping until then).
    static func pair(_ a: LaunchedProgram, _ b: LaunchedProgram, at seconds: Double, since started: Date) throws -> (
        ProcessSample, ProcessSample
    ) {
        Thread.sleep(forTimeInterval: max(0, seconds - Date().timeIntervalSince(started)))
        guard let first = ProcessSample(pid: a.identifier), let second = ProcessSample(pid: b.identifier)
        else {
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
    /// Times each thread has gone to sleep so far (its voluntary context switches: one per
    /// wake-up), by the thread's name (threads of one name added together).
    var sleepsByThread: [String: Int]
    /// CPU time each thread has run so far (ns, the scheduler's own count in
    /// /proc/PID/task/TID/schedstat: finer than the clock ticks of `stat`), by thread name.
    var runNanosecondsByThread: [String: Int]

    /// Reads the process `pid`; nil when it is gone.
    init?(pid: Int32) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
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
        sleepsByThread = [:]
        runNanosecondsByThread = [:]
        let tasks = "/proc/\(pid)/task"
        for task in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            guard let name = try? String(contentsOfFile: "\(tasks)/\(task)/comm", encoding: .utf8),
                let status = try? String(contentsOfFile: "\(tasks)/\(task)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
                let sleeps = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.flatMap({ Int($0) })
            else { continue }
            let thread = name.trimmingCharacters(in: .whitespacesAndNewlines)
            sleepsByThread[thread, default: 0] += sleeps
            if let schedstat = try? String(contentsOfFile: "\(tasks)/\(task)/schedstat", encoding: .utf8),
                let running = schedstat.split(separator: " ").first.flatMap({ Int($0) })
            {
                runNanosecondsByThread[thread, default: 0] += running
            }
        }
    }

    /// CPU milliseconds per second of each thread between `earlier` and this sample,
    /// `seconds` apart.
    func cpuMillisecondsPerSecond(since earlier: ProcessSample, seconds: Double) -> [String: Double] {
        // A loop: Swift 6.0 (the arm64 build) gave up type-checking this as one expression.
        var rates: [String: Double] = [:]
        for (thread, nanoseconds) in runNanosecondsByThread {
            let ran: Int = nanoseconds - (earlier.runNanosecondsByThread[thread] ?? 0)
            rates[thread] = Double(ran) / 1e6 / seconds
        }
        return rates
    }

    /// Wake-ups per second of each thread between `earlier` and this sample, `seconds` apart.
    func wakeupsPerSecond(since earlier: ProcessSample, seconds: Double) -> [String: Double] {
        sleepsByThread.mapValues { Double($0) / seconds }.merging(
            earlier.sleepsByThread.mapValues { -Double($0) / seconds }, uniquingKeysWith: +)
    }
}
