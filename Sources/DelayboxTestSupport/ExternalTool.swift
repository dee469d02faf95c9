import Foundation

/// Runs a real program (ffmpeg, curl, icecast2) for tests, with its output captured.
public enum ExternalTool {
    public struct Failed: Error, CustomStringConvertible {
        public var description: String
    }

    /// Runs `arguments[0]` (looked up on PATH) to completion; throws with its stderr on failure.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "\(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                         + String(decoding: err, as: UTF8.self).suffix(500))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A fresh temporary directory for one test.
    public static func temporaryDirectory(_ name: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("delaybox-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Encodes `seconds` of a `frequency` Hz sine with ffmpeg into `path`
    /// (codec and container from `codecArguments`, e.g. `["-c:a", "libmp3lame", "-b:a", "128k"]`).
    public static func encodeTone(frequency: Int, seconds: Double, sampleRate: Int, channels: Int,
                                  codecArguments: [String], to path: String) throws {
        try run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi",
                 "-i", "sine=frequency=\(frequency):sample_rate=\(sampleRate):duration=\(seconds)",
                 "-ac", "\(channels)"] + codecArguments + [path])
    }
}
