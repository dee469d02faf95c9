import DelayboxTestSupport
import Foundation

/// The whole appliance, `delaybox run`, on a board written for the benchmark: one
/// channel (a live stream), ALSA's `null` device paced at real time in 20 ms periods (4
/// of them, as the shipped boards have, unless told), a console on a pseudo-terminal.
struct ApplianceRun {
    /// The `delaybox` executable.
    var executable: String
    /// Where the board config and state file go.
    var directory: URL
    /// Periods in the device's buffer: more, fewer wake-ups of the audio thread, and the
    /// controls' sounds and software volume heard later (docs/performance.md).
    var periods = 4

    /// The command line that plays `url` at `delaySeconds` for `totalSeconds`; with
    /// `recording`, a second channel of that stream is recorded in the background.
    func command(url: String, delaySeconds: Double, totalSeconds: Double, recording: String? = nil) throws -> [String] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let board = directory.appendingPathComponent("board.yaml")
        let state = directory.appendingPathComponent("state.json")
        try? FileManager.default.removeItem(at: state)
        let yaml = """
            board:
              name: Benchmark
            audio:
              device: alsa:null
              period: 20 ms
              periods: \(periods)
            console:
              device: pty
            channels:
              - name: Live
                url: \(url)
            \(recording.map { "  - name: Recorded\n    url: \($0)\n    record: true" } ?? "")
            defaults:
              initial_buffer: 1 s
              max_delay: 10 min
              delay: \(Int(delaySeconds * 1_000)) ms

            """
        try yaml.write(to: board, atomically: true, encoding: .utf8)
        return [
            executable, "run", "--board", board.path, "--state", state.path, "--seconds", String(totalSeconds),
            "--socket", directory.appendingPathComponent("control.sock").path,
        ]
    }

    /// Start-up on a local live stream with a 1 s initial buffer and delay: the
    /// appliance's own figure (process start to the first programme frame at the jack,
    /// from its log), as a check on it, when that log line was seen here (s), and its
    /// resident memory then (bytes: the program and a second of buffer, before the delay grows).
    func startToAudio() throws -> (reported: Double, seen: Double, residentBytes: Int) {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        let log = Pipe()
        let started = Date()
        let process = try LaunchedProgram(
            URL(fileURLWithPath: executable),
            Array(try command(url: server.url(mount: "/live.mp3"), delaySeconds: 1, totalSeconds: 5).dropFirst()),
            errors: .pipe(log))
        defer { process.kill() }
        var text = ""
        while true {
            let data = log.fileHandleForReading.availableData
            if data.isEmpty { throw Bench.BenchError("delaybox run ended without first audio:\n\(text.suffix(1_000))") }
            text += String(decoding: data, as: UTF8.self)
            guard let line = text.split(separator: "\n").first(where: { $0.contains("first audio at the output") })
            else { continue }
            let seen = Date().timeIntervalSince(started)
            guard let memory = ProcessSample(pid: process.identifier) else {
                throw Bench.BenchError("delaybox run ended at its first audio")
            }
            guard let reported = line.split(separator: " ").compactMap({ Double($0) }).first else {
                throw Bench.BenchError("unreadable: \(line)")
            }
            return (reported, seen, memory.residentBytes)
        }
    }
}
