import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `delaybox run` for a test or a benchmark that talks to a whole box — the one way they
/// start it (issue 69). It runs in a directory of its own, its working directory, where
/// its board config (`board.yaml`), state file (`state.json`) and control socket
/// (`control.sock`) are; its log (stderr) goes to `log.txt` there. When it goes, the
/// process is killed if still running and a directory it made is removed.
public final class BoxUnderTest {
    /// How the box is started: as systemd would, in the ways a test needs.
    public enum Start {
        /// `delaybox run` itself.
        case direct
        /// Through bash, with `prefix` run first in the same shell (`ulimit -f 300; `: a limit
        /// systemd would set).
        case shell(prefix: String)
        /// Under `systemd-socket-activate` listening on `address` (`127.0.0.1:PORT`): the page's
        /// socket handed in as systemd hands it. Started with posix_spawn (`SpawnedProcess`).
        case socketActivated(address: String)
    }

    public let directory: URL
    /// The control socket, for `delayboxctl --socket`.
    public let socket: String
    /// Its board config: `board` wrote it, a test may rewrite it before a SIGHUP.
    public let boardFile: URL
    /// Its state file (the listener's delay, volume, channel).
    public let stateFile: URL
    public private(set) var process: any RunningProgram
    private let logFile: URL
    private let executables: URL
    /// Whether `directory` was made for it (and goes with it).
    private let ownsDirectory: Bool
    /// How `delaybox run` was started: `startAgain` does the same.
    private let launch: (arguments: [String], environment: [String: String], start: Start)

    /// Writes the board config `board` gives for the box's directory (where its output
    /// file may go) and starts `delaybox run` on it.
    /// - Parameters:
    ///   - executables: the directory holding `delaybox` and `delayboxctl`.
    ///   - name: names the temporary directory made for it.
    ///   - place: a directory of the test's instead (files it needs beside the box's); the
    ///     test removes it.
    ///   - arguments: more of `run`'s options (`--delay`, `--seconds`, `--site`).
    ///   - environment: more of its environment (what systemd would set: `RUNTIME_DIRECTORY`,
    ///     `NOTIFY_SOCKET`).
    ///   - board: the board file's text; nil: none is written (`--auto-board` writes one).
    public init(
        executables: URL, name: String = "box", in place: URL? = nil, arguments: [String] = [],
        environment: [String: String] = [:], start: Start = .direct, board: ((_ directory: URL) -> String)?
    ) throws {
        self.executables = executables
        ownsDirectory = place == nil
        directory = try place ?? ExternalTool.temporaryDirectory(name)
        socket = directory.appendingPathComponent("control.sock").path
        logFile = directory.appendingPathComponent("log.txt")
        boardFile = directory.appendingPathComponent("board.yaml")
        stateFile = directory.appendingPathComponent("state.json")
        if let board { try board(directory).write(to: boardFile, atomically: true, encoding: .utf8) }
        launch = (
            ["run", "--board", boardFile.path, "--state", stateFile.path, "--socket", socket] + arguments,
            environment, start
        )
        process = try Self.start(
            executables.appendingPathComponent("delaybox"), launch, in: directory, log: logFile)
    }

    private static func start(
        _ delaybox: URL, _ launch: (arguments: [String], environment: [String: String], start: Start),
        in directory: URL, log: URL
    ) throws -> any RunningProgram {
        switch launch.start {
        case .direct:
            return try LaunchedProgram(
                delaybox, launch.arguments, environment: launch.environment, directory: directory,
                errors: .file(log))
        case .shell(let prefix):
            let command = ([delaybox.path] + launch.arguments).map { "'\($0)'" }.joined(separator: " ")
            return try LaunchedProgram(
                URL(fileURLWithPath: "/bin/bash"), ["-c", prefix + "exec " + command],
                environment: launch.environment, directory: directory, errors: .file(log))
        case .socketActivated(let address):
            guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
                throw ExternalTool.Failed(description: "cannot create \(log.path)")
            }
            // env: the directory and the environment, which posix_spawn here does not set.
            return try SpawnedProcess(
                ["/usr/bin/systemd-socket-activate", "-l", address, "/usr/bin/env", "-C", directory.path]
                    + launch.environment.map { "\($0.key)=\($0.value)" } + [delaybox.path] + launch.arguments,
                stderrFile: log)
        }
    }

    /// Starts `delaybox run` again on the same directory, as systemd starts a box that
    /// stopped (the one before must have ended); its log is the new run's.
    public func startAgain() throws {
        process = try Self.start(
            executables.appendingPathComponent("delaybox"), launch, in: directory, log: logFile)
    }

    /// The package's debug build of the programs, for a test: `root` is the package's.
    public static func debugBuild(root: URL) -> URL { BuiltProgram.directory(root: root) }

    deinit {
        process.kill()
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// What the box has logged so far.
    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Runs `delayboxctl` with `arguments` against the running box.
    public func ctl(_ arguments: [String]) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(executables.appendingPathComponent("delayboxctl"), ["--socket", socket] + arguments)
    }

    /// Waits up to `seconds` for its control socket: it has started and answers.
    public func waitForSocket(within seconds: Double = 10) throws {
        try Eventually.wait(for: "the box's control socket", within: seconds, every: 0.05) {
            FileManager.default.fileExists(atPath: self.socket)
        }
    }

    /// Sets the page's password as its owner does at the box (`delayboxctl web password`, one
    /// line on stdin), once the box answers; true when it was set.
    public func setWebPassword(_ password: String) -> Bool {
        let ctl = executables.appendingPathComponent("delayboxctl")
        return Eventually.holds(within: 10, every: 0.1) {
            (try? ExternalTool.execute(ctl, ["--socket", socket, "web", "password"], input: password + "\n"))?.status
                == 0
        }
    }

    /// Asks the box to stop (SIGTERM, as systemd does) and waits for it.
    public func stop() {
        process.signal(SIGTERM)
        process.waitUntilExit()
    }

    /// Waits for the run to end by itself (`--seconds`); its exit status.
    public func waitUntilExit() -> Int32 { process.waitUntilExit() }

    /// Waits for the run to end by itself; its exit status and log.
    public func finish() -> (status: Int32, log: String) { (waitUntilExit(), log) }
}
