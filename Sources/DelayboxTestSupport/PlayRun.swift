import DelayboxConfig
import Foundation

/// `delaybox play --json` run as a subprocess while a test injects faults, with the
/// lines it printed parsed afterwards.
public final class PlayRun {
    public let started = Date()
    private let process: LaunchedProgram
    /// Output goes to a file, not a pipe: servers a test starts later would inherit the
    /// pipe's write end and keep it open past the run.
    private let outputFile: URL

    /// Starts the built binary (`.build/debug/delaybox` under `root`) with `arguments`
    /// after `play`.
    public init(root: URL, arguments: [String]) throws {
        outputFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "delaybox-play-\(UUID().uuidString).jsonl")
        process = try LaunchedProgram(
            BuiltProgram.url("delaybox", root: root), ["play", "--json"] + arguments, output: .file(outputFile))
    }

    /// Seconds since the run started.
    public var elapsed: Double { Date().timeIntervalSince(started) }

    /// Sleeps until `seconds` after the start.
    public func wait(until seconds: Double) {
        let remaining = seconds - elapsed
        if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
    }

    /// Waits for the process; returns its exit status and the JSON lines it printed, each
    /// read as the type the player writes (a line that is not one is left out).
    public func finish() -> (status: Int32, diedOfSignal: Bool, lines: [PlayLine]) {
        process.waitUntilExit()
        let collected = (try? Data(contentsOf: outputFile)) ?? Data()
        try? FileManager.default.removeItem(at: outputFile)
        let decoder = JSONDecoder()
        let lines = String(decoding: collected, as: UTF8.self).split(separator: "\n").compactMap {
            try? decoder.decode(PlayLine.self, from: Data($0.utf8))
        }
        return (process.terminationStatus, process.diedOfSignal, lines)
    }
}

extension Array where Element == PlayLine {
    /// The `to` of every state line, in order, up to the stop that ends the run (`--for`):
    /// the state the stream was in at the end is `states.last`.
    public var states: [String] {
        var changes = lines("state")
        if changes.last?.reason == "stop requested" { changes.removeLast() }
        return changes.compactMap(\.to)
    }
    /// Lines of one type.
    public func lines(_ type: String) -> [PlayLine] { filter { $0.type == type } }
}
