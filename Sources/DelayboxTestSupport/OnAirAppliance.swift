import DelayboxEngine
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `delaybox run` as a listener's box, for tests on a live server: the simulated host's
/// board with the given channels, its output a WAV file written at real-time pace, and a
/// control socket for `delayboxctl` while it runs; its log and output are read afterwards.
public final class OnAirAppliance {
    public let started = Date()
    /// The output, 48 kHz 16-bit stereo.
    public let wav: String
    /// How long the run lasts (s).
    public let seconds: Int
    private let box: BoxUnderTest

    /// Starts the box on the first of `channels` (name, URL) at `delay` seconds, for
    /// `seconds` seconds; `root` is the package's, holding `.build/debug`. The channels
    /// named in `recorded` are recorded while another plays (`record: true`). `period`
    /// sets the output's period (4 of them in its ring; default: the simulated host's 20 ms);
    /// `extra` is more of the board file (top-level sections: `mqtt:`, `web:`); `environment`
    /// is added to the box's.
    public init(
        root: URL, channels: [(name: String, url: String)], recorded: Set<String> = [], delay: Double, seconds: Int,
        period: TimeAmount? = nil, extra: String = "", environment: [String: String] = [:]
    ) throws {
        self.seconds = seconds
        box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: root), name: "on-air",
            arguments: ["--delay", String(delay), "--seconds", String(seconds)], environment: environment
        ) { directory in
            """
            extends: \(root.appendingPathComponent("board-configs/simulated-host.yaml").path)
            audio:
              device: wav:\(directory.appendingPathComponent("out.wav").path)\(period.map { "\n  period: \($0.milliseconds) ms" } ?? "")
            channels:
            \(channels.map { "  - name: \($0.name)\n    url: \($0.url)" + (recorded.contains($0.name) ? "\n    record: true" : "") }.joined(separator: "\n"))
            defaults:
              volume: 100
            \(extra)
            """
        }
        wav = box.directory.appendingPathComponent("out.wav").path
    }

    /// Sleeps until `seconds` after the start.
    public func wait(until seconds: Double) {
        Thread.sleep(until: started.addingTimeInterval(seconds))
    }

    /// Waits up to `timeout` seconds for `count` lines of the log that contain `text`;
    /// whether they came.
    @discardableResult
    public func waitForLog(containing text: String, count: Int = 1, timeout: Double = 15) -> Bool {
        func seen() -> Bool { box.log.components(separatedBy: text).count - 1 >= count }
        _ = Eventually.holds(within: timeout, every: 0.05) { seen() || !box.process.isRunning }
        return seen()
    }

    /// Runs `delayboxctl` with `arguments` against the running box.
    public func ctl(_ arguments: [String]) throws -> ExternalTool.Outcome { try box.ctl(arguments) }

    /// The output as stereo samples, up to half a second before the run's end: what the box
    /// played before it was asked to stop. (The stop fades out and the output writes
    /// silence while the box shuts down — on a loaded machine for long enough to look like
    /// a gap in the programme at its end.)
    public func programme() throws -> [Int16] {
        let samples = try WavCapture.stereoSamples(path: wav)
        return Array(samples.prefix(max(0, seconds * 48_000 - 24_000) * 2))
    }

    /// Waits for the run to end; its exit status and log (stderr).
    public func finish() -> (status: Int32, log: String) { box.finish() }

    /// When the first frame of a run's output was heard — where its WAV file's time 0 is —
    /// from its log's "first frame heard at monotonic T s" and this machine's clocks now.
    /// (A loaded machine starts the output later after the process than an idle one.)
    public static func firstFrameHeard(in log: String) -> Date? {
        guard let monotonic = firstFrameHeardMonotonic(in: log) else { return nil }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Date().addingTimeInterval(monotonic - (Double(now.tv_sec) + Double(now.tv_nsec) / 1e9))
    }

    /// The same as CLOCK_MONOTONIC seconds, as the log says it.
    public static func firstFrameHeardMonotonic(in log: String) -> Double? {
        guard let line = log.split(separator: "\n").first(where: { $0.contains("its first frame heard at monotonic") })
        else { return nil }
        return Double(line.split(separator: " ").dropLast().last ?? "")
    }
}
