import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program a test or a benchmark starts — the box, a server, a stream source, a client —
/// the one way they start programs (issue 43). Its output and its errors each go to a file
/// or nowhere, never to a pipe: two pipes read one after the other deadlock a child that
/// fills the second one's 64 KiB first, and a pipe's write end is inherited by every
/// program started after it (a server a test started later held a run's output open past
/// the run's end) — except where output must be read as it comes (`.pipe`: a test waiting
/// for a program's first word, the benchmark's live readers). Its input is a file, or this
/// process's own. When the last reference goes, a program still running is killed and
/// reaped: no test leaves one behind.
public final class LaunchedProgram: RunningProgram {
    /// Where one of its output streams goes.
    public enum Destination {
        case nowhere
        /// This file, emptied first.
        case file(URL)
        /// This pipe, for a test that blocks on the program's first word; it must read on
        /// to the end, or the program stops when the pipe is full.
        case pipe(Pipe)
    }

    private let process = Process()
    /// What it is called in messages: the program's file name (for `command:`, the command's).
    public private(set) var name: String

    /// Starts `executable` with `arguments`, `environment` added to this process's, in
    /// `directory` (nil: this process's).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
        input: URL? = nil, output: Destination = .nowhere, errors: Destination = .nowhere
    ) throws {
        name = executable.lastPathComponent
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        if let input { process.standardInput = try FileHandle(forReadingFrom: input) }
        process.standardOutput = try Self.handle(output)
        process.standardError = try Self.handle(errors)
        try process.run()
    }

    /// Starts `command[0]`, looked up on PATH, with the rest as its arguments.
    public convenience init(
        command: [String], environment: [String: String] = [:], directory: URL? = nil, input: URL? = nil,
        output: Destination = .nowhere, errors: Destination = .nowhere
    ) throws {
        try self.init(
            URL(fileURLWithPath: "/usr/bin/env"), command, environment: environment, directory: directory,
            input: input, output: output, errors: errors)
        name = command.first ?? name
    }

    deinit { kill() }

    private static func handle(_ destination: Destination) throws -> Any {
        switch destination {
        case .nowhere: return FileHandle.nullDevice
        case .pipe(let pipe): return pipe
        case .file(let url):
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw ExternalTool.Failed(description: "cannot create \(url.path)")
            }
            return try FileHandle(forWritingTo: url)
        }
    }

    /// Its process identifier.
    public var identifier: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    /// Its exit status, or the signal that ended it (see `diedOfSignal`); once it has ended.
    public var terminationStatus: Int32 { process.terminationStatus }
    /// Whether a signal ended it.
    public var diedOfSignal: Bool { process.terminationReason == .uncaughtSignal }

    /// Sends it `signal` (SIGTERM as systemd stops a service, SIGSTOP to freeze it).
    public func signal(_ signal: Int32) {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, signal)
    }

    /// Waits for it to end; its exit status.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// Ends it at once (SIGKILL) and reaps it.
    public func kill() {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
