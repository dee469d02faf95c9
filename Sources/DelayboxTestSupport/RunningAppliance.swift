import Foundation

/// `delaybox run` started in a directory of its own, for a test or a benchmark that talks
/// to a whole box: its board config, state file and control socket are there, its log
/// (stderr) goes to a file there; when it goes, the process is killed if still running and
/// the directory removed.
public final class RunningAppliance {
    public let directory: URL
    /// The control socket, for `delayboxctl --socket`.
    public let socket: String
    public private(set) var process: LaunchedProgram
    private let logFile: URL
    private let executables: URL
    /// How `delaybox run` was started: `startAgain` does the same.
    private let launch: (arguments: [String], environment: [String: String])

    /// Writes the board config `board` gives for the box's directory (where its output
    /// file may go) and starts `delaybox run` on it.
    /// - Parameters:
    ///   - executables: the directory holding `delaybox` and `delayboxctl`.
    ///   - name: names the temporary directory.
    ///   - arguments: more of `run`'s options (`--delay`, `--seconds`).
    ///   - environment: more of its environment (what systemd would set: `RUNTIME_DIRECTORY`).
    public init(
        executables: URL, name: String, arguments: [String] = [], environment: [String: String] = [:],
        board: (_ directory: URL) -> String
    ) throws {
        self.executables = executables
        directory = try ExternalTool.temporaryDirectory(name)
        socket = directory.appendingPathComponent("control.sock").path
        logFile = directory.appendingPathComponent("log.txt")
        let boardFile = directory.appendingPathComponent("board.yaml")
        try board(directory).write(to: boardFile, atomically: true, encoding: .utf8)
        launch = (
            [
                "run", "--board", boardFile.path, "--state", directory.appendingPathComponent("state.json").path,
                "--socket", socket,
            ] + arguments, environment
        )
        process = try LaunchedProgram(
            executables.appendingPathComponent("delaybox"), launch.arguments, environment: environment,
            errors: .file(logFile))
    }

    /// Starts `delaybox run` again on the same directory, as systemd starts a box that
    /// stopped (the one before must have ended); its log is the new run's.
    public func startAgain() throws {
        process = try LaunchedProgram(
            executables.appendingPathComponent("delaybox"), launch.arguments, environment: launch.environment,
            errors: .file(logFile))
    }

    /// The package's debug build of the programs, for a test: `root` is the package's.
    public static func debugBuild(root: URL) -> URL { BuiltProgram.directory(root: root) }

    deinit {
        process.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// What the box has logged so far.
    public var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Runs `delayboxctl` with `arguments` against the running box.
    public func ctl(_ arguments: [String]) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(executables.appendingPathComponent("delayboxctl"), ["--socket", socket] + arguments)
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
}
