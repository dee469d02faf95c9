import Foundation

/// Runs a real program (ffmpeg, curl, icecast2) for tests, with its output captured.
public enum ExternalTool {
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// What a finished program left.
    public struct Outcome {
        public var status: Int32
        public var output: String
        public var errors: String
    }

    /// Runs `executable` with `arguments` to completion, whatever its exit status, with
    /// `environment` added to this process's, and `input` (when given) on its standard input.
    /// Its output, errors and input are files of a temporary directory (`LaunchedProgram`):
    /// nothing waits on a pipe, whatever it writes first and however much.
    public static func execute(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        input: String? = nil
    ) throws -> Outcome {
        let directory = try temporaryDirectory("run")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("output")
        let errors = directory.appendingPathComponent("errors")
        let given = input.map { _ in directory.appendingPathComponent("input") }
        if let given, let input { try input.write(to: given, atomically: false, encoding: .utf8) }
        let program = try LaunchedProgram(
            executable, arguments, environment: environment, input: given, output: .file(output),
            errors: .file(errors))
        let status = program.waitUntilExit()
        return Outcome(
            status: status, output: String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self),
            errors: String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self))
    }

    /// Runs `arguments[0]` (looked up on PATH) to completion; throws with its stderr on failure.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> String {
        let outcome = try execute(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        guard outcome.status == 0 else {
            throw Failed(
                description: "\(arguments.joined(separator: " ")) exited \(outcome.status): "
                    + outcome.errors.suffix(500))
        }
        return outcome.output
    }

    /// Starts `arguments[0]` (looked up on PATH) in the background, output discarded;
    /// `kill()` ends it (and its last reference going does).
    public static func spawn(_ arguments: [String]) throws -> LaunchedProgram {
        try LaunchedProgram(command: arguments)
    }

    /// A fresh temporary directory for one test.
    public static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("delaybox-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Encodes `seconds` of a `frequency` Hz sine with ffmpeg into `path`
    /// (codec and container from `codecArguments`, e.g. `["-c:a", "libmp3lame", "-b:a", "128k"]`).
    public static func encodeTone(
        frequency: Int, seconds: Double, sampleRate: Int, channels: Int,
        codecArguments: [String], to path: String
    ) throws {
        try run(
            [
                "ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate):duration=\(seconds)",
                "-ac", "\(channels)",
            ] + codecArguments + [path])
    }
}
