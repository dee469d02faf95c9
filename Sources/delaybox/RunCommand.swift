import ArgumentParser
import DelayboxApp
import DelayboxFiles
import DelayboxPlatform
import DelayboxService
import FoundationEssentials

struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the appliance with a board config (the systemd service runs this).",
        discussion: """
            Reads the board config (and the site file over it), restores the saved settings
            from the state file, and plays. SIGTERM fades out, saves and exits; SIGHUP
            reloads the config. See docs/daemon.md.
            """)

    @Option(name: .long, help: "The board config file.")
    var board: String

    @Flag(
        name: .customLong("auto-board"),
        help:
            "When the board file does not exist, choose a board: the one the HAT names, else the defaults on the first sound card that is not HDMI (the service does; docs/daemon.md)."
    )
    var autoBoard = false

    @Option(name: .long, help: "A site file laid over the board config.")
    var site: String?

    @Option(name: .long, help: "The state file (delay, volume, channel, presets).")
    var state: String =
        ProcessInfo.processInfo.environment["STATE_DIRECTORY"].map { $0 + "/state.json" }
        ?? "/var/lib/delaybox/state.json"

    @Option(
        name: .long,
        help: "The control socket for delayboxctl (default: $RUNTIME_DIRECTORY/control.sock under systemd, else none).")
    var socket: String?

    @Option(name: .long, help: "Start at this delay in seconds instead of the saved one.")
    var delay: Double?

    @Option(name: .long, help: "Stop after this many seconds (0: run until stopped).")
    var seconds: Double = 0

    func run() throws {
        JournalLog.bootstrap()
        var options = Appliance.Options(boardPath: board, statePath: state)
        if autoBoard, !FileManager.default.fileExists(atPath: board) {
            do {
                let chosen = try AutomaticBoardFile.prepare(besideState: state)
                options.boardPath = chosen.path
                options.automaticBoard = "no \(board): playing with \(chosen.said)"
            } catch let error as AutomaticBoardFile.Unavailable {
                StandardStream.error.write("delaybox: \(error)\n")
                throw ExitCode(1)
            }
        }
        options.sitePath = site
        options.socketPath =
            socket ?? ProcessInfo.processInfo.environment["RUNTIME_DIRECTORY"].map { $0 + "/control.sock" }
        options.delay = try delay.map { .milliseconds(try milliseconds($0, "--delay")) }
        options.seconds = seconds
        do {
            try Appliance(options: options).run()
        } catch let error as Appliance.StartFailed {
            StandardStream.error.write("delaybox: \(error)\n")
            throw ExitCode(1)
        } catch is Appliance.RestartAsked {
            throw ExitCode(Appliance.restartStatus)
        }
    }
}
