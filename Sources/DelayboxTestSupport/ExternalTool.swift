import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
    /// Its input is written and its stderr read on threads of their own while stdout is read
    /// here: one pipe read to its end before the other deadlocked a child that filled the
    /// other pipe's 64 KiB first (issue 43).
    public static func execute(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:],
        input: String? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let feed = input.map { _ in Pipe() }
        if let feed { process.standardInput = feed }
        try process.run()
        let others = DispatchGroup()
        if let feed, let input {
            DispatchQueue.global().async(group: others) {
                feed.fileHandleForWriting.write(Data(input.utf8))
                try? feed.fileHandleForWriting.close()
            }
        }
        nonisolated(unsafe) var err = Data()
        DispatchQueue.global().async(group: others) { err = errors.fileHandleForReading.readDataToEndOfFile() }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        others.wait()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
            errors: String(decoding: err, as: UTF8.self))
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
    /// end it with `stop(_:)`.
    public static func spawn(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Ends a spawned process at once (SIGKILL) and reaps it.
    public static func stop(_ process: Process) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
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
