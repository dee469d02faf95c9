import DelayboxConfig
import DelayboxConfigFile
import DelayboxDoors
import DelayboxEngine
import DelayboxFFmpeg
import DelayboxFiles
import DelayboxLog
import DelayboxMicroHTTPD
import DelayboxOutput
import DelayboxPlatform
import DelayboxProgramme
import DelayboxService
import DelayboxState
import DelayboxWeb
import FoundationEssentials

/// The composition root of `delaybox run`: reads the board config and the saved
/// settings, wires the doors, the output and the `Playout` (which runs the loop), and
/// behaves as a systemd service (docs/daemon.md): READY once audio flows, the watchdog
/// fed only while the output takes audio, SIGTERM fades out, saves and exits, SIGHUP
/// reloads the config.
///
/// Threads: this one (playout) runs the `Playout`, which owns the engine and renders into
/// the output's ring, at the pace the ring needs; the audio thread writes the ring to the
/// device; the stream client and the `Doors` (front panel, remote, console, control
/// socket) have their own and post to this one (docs/architecture.md).
public final class Appliance {
    public struct Options: Sendable {
        public var boardPath: String
        public var sitePath: String?
        public var statePath: String
        /// Where `config save` writes the console's changes, laid over the site file at
        /// start: `config.yaml` beside the state file.
        public var consoleConfigPath: String?
        /// The control socket for `delayboxctl`; nil: none.
        public var socketPath: String?
        /// Overrides the saved delay.
        public var delay: TimeAmount?
        /// Stop after this long (0: run until stopped).
        public var seconds: Double = 0
        /// Why `boardPath` is a board the box chose itself (`AutomaticBoardFile`); nil: given.
        public var automaticBoard: String?
        public init(boardPath: String, statePath: String) {
            self.boardPath = boardPath
            self.statePath = statePath
            consoleConfigPath =
                URL(fileURLWithPath: statePath).deletingLastPathComponent().appendingPathComponent("config.yaml").path
        }
    }

    public struct StartFailed: Error, CustomStringConvertible {
        public var description: String
    }

    private let options: Options
    private let logger = Logger(label: "delaybox.appliance")
    private static let configLogger = Logger(label: "delaybox.config")
    private let stateLogger = Logger(label: "delaybox.state")
    private var config: BoardConfig
    /// The config as written (values with their files and lines), for `config get`.
    private var document: ConfigNode?
    /// The settings as loaded; once running, the command executor owns them.
    private let loadedSettings: Settings
    private let settingsFile: SettingsFile

    public init(options: Options) throws {
        self.options = options
        if let automaticBoard = options.automaticBoard {
            Self.configLogger.notice(
                "\(automaticBoard) — choose one on the page (Box → Board) or with delaybox board NAME")
        }
        (config, document) = try Self.loadConfig(options, logger: Self.configLogger)
        // At the start the box plays what it can, and says what may run out.
        if let ram = SystemMemory.totalBytes(), let problem = ChannelMemory.problem(config, ramBytes: ram) {
            Self.configLogger.error("\(problem)")
        }
        settingsFile = SettingsFile(path: options.statePath)
        let loaded = settingsFile.load(
            fallback: Settings(defaults: config.defaults), maxDelay: config.defaults.maxDelay)
        if let problem = loaded.problem { stateLogger.notice("\(problem)") }
        var (settings, lowered) = loaded.settings.forStart(config.defaults)
        if let lowered { stateLogger.notice("\(lowered)") }
        if let delay = options.delay { settings.delay = delay }
        loadedSettings = settings
    }

    /// The board file with the site file and then the console's saved changes over it. A
    /// broken overlay is reported and left out, the console's first (the board still
    /// plays); a broken board file stops the start.
    static func loadConfig(_ options: Options, logger: Logger) throws -> (BoardConfig, ConfigNode?) {
        let overlays = [(options.sitePath, "site file"), (options.consoleConfigPath, "console's saved changes")]
            .compactMap { path, name in path.map { (path: $0, name: name) } }
            .filter { FileManager.default.fileExists(atPath: $0.path) }
        var failures: [ConfigDiagnostic] = []
        for count in stride(from: overlays.count, through: 0, by: -1) {
            let layers = Array(overlays.prefix(count))
            let loaded = ConfigFile.load(options.boardPath, overlays: layers.map(\.path))
            guard let config = loaded.config else {
                failures += loaded.diagnostics.filter { $0.severity == .error && !failures.contains($0) }
                continue
            }
            for diagnostic in loaded.diagnostics where diagnostic.severity == .warning {
                logger.warning("\(diagnostic)")
            }
            let ignored = overlays.dropFirst(count).map(\.name).joined(separator: " and ")
            let kept = (["board file"] + layers.map(\.name)).joined(separator: ", ")
            for diagnostic in failures {
                logger.error(
                    "\(diagnostic) (\(ignored) ignored, playing with the \(kept)\(count == 0 ? " alone" : ""))")
            }
            return (config, ConfigFile.document(options.boardPath, overlays: layers.map(\.path)).document)
        }
        let boardOnly = ConfigFile.load(options.boardPath)
        throw StartFailed(
            description: "the board config is invalid:\n"
                + boardOnly.diagnostics.map(\.description).joined(separator: "\n"))
    }

    public func run() throws {
        let clock = SystemClock()
        let sleeper = SystemSleeper(clock: clock)
        let cues = FeedbackCues()
        let output = openOutput(clock: clock, sleeper: sleeper, cues: cues)
        let wakeable = WakeableSleeper(clock: clock)
        // The web page's password beside the state file; the page may choose the first one
        // in the 30 minutes after the board booted (docs/web.md).
        let web = WebPasswordFile.access(besideState: options.statePath)
        let inbox = ConsoleInbox(ring: wakeable.ring, web: web)
        let signals = SignalInbox()
        let start = clock.now()
        let log = ApplianceLog(board: config.name, output: output.device.description)
        // FFmpeg's own messages go to the journal with the rest, not raw to stderr around
        // its priorities.
        log.receiveFFmpegMessages()
        let playout = try makePlayout(
            output: output, cues: cues, inbox: inbox, clock: clock, log: log, systemd: SystemdNotifier(), now: start)
        defer { playout.close() }
        let end = try playout.runInRealTime(seconds: options.seconds, sleeper: wakeable) { _ in
            if signals.stopRequested || playout.restartAsked { return false }
            if signals.takeReloadRequest() { playout.requestReload() }
            return true
        }
        // Fade out (one period) and save, then let the device play it and go.
        inbox.close()
        playout.fadeOut(now: end)
        output.stop()
        if let why = playout.restartReason {
            stateLogger.notice("stopped after \(why): to be started again (exit status \(FactoryReset.restartStatus))")
            throw RestartAsked()
        }
        stateLogger.info("stopped; settings saved to \(settingsFile.path)")
    }

    /// `run` ended to be started again as new (a factory reset): `delaybox run` exits with
    /// `restartStatus`, which systemd restarts.
    public struct RestartAsked: Error {}

    /// The exit status with which `delaybox run` asks to be started again.
    public static let restartStatus = FactoryReset.restartStatus

    /// This appliance's playout — its config, saved settings and doors — on `clock`: the
    /// system's in `run`; a manual one in ApplianceScenarioTests, which step it in virtual
    /// time. `cues` are the feedback sounds `output`'s audio thread plays.
    func makePlayout(
        output: OutputPath, cues: FeedbackCues, inbox: ConsoleInbox, clock: any MonotonicClock, log: any PlayoutLog,
        systemd: SystemdNotifier, now: Instant
    ) throws -> Playout {
        let options = self.options
        var setup = Playout.Setup(
            config: config, document: document, settings: loadedSettings, settingsFile: settingsFile,
            consoleConfigPath: options.consoleConfigPath, cacheDirectory: cacheDirectory, cues: cues, log: log,
            reload: { try Self.loadConfig(options, logger: Self.configLogger) })
        // The delay survives a restart in the service's runtime directory (tmpfs, kept
        // across restarts: RuntimeDirectoryPreserve=restart), never on the SD card.
        if let runtime = ProcessInfo.processInfo.environment["RUNTIME_DIRECTORY"], !runtime.isEmpty {
            setup.journalDirectory = runtime + "/journal"
        }
        // The nightly look for a new release, as the page left it (read here, before playout).
        let daily = URL(fileURLWithPath: options.statePath).deletingLastPathComponent()
            .appendingPathComponent("daily-updates").path
        setup.dailyUpdatesPath = daily
        setup.dailyUpdates = (try? String(contentsOfFile: daily, encoding: .utf8))?.hasPrefix("off") != true
        setup.factoryReset = FactoryReset(
            statePath: options.statePath, consoleConfigPath: options.consoleConfigPath,
            journalDirectory: setup.journalDirectory)
        setup.backups = BoxBackupFiles(
            paths: .init(
                state: options.statePath, consoleConfig: options.consoleConfigPath, dailyUpdates: daily,
                journalDirectory: setup.journalDirectory, board: options.boardPath, site: options.sitePath,
                webPassword: WebPasswordFile.passwords(besideState: options.statePath).file.path),
            box: HostName.current(), release: DelayboxVersion.string,
            sealing: .init(derive: { PasswordHashing.key(from: $0, setting: $1) }, random: PasswordHashing.randomBytes),
            nowUnixMs: { Int64(WallClock.unixTime() * 1_000) })
        // Just reset: the page's password is chosen again, for 30 minutes from now.
        setup.reset = FactoryReset.takeMark(besideState: options.statePath)
        if setup.reset != nil { _ = inbox.web?.openSetup(now: SystemClock.monotonicNow()) }
        let doors = Doors(
            config: config, inbox: inbox, socketPath: options.socketPath, version: DelayboxVersion.string,
            hotspotPasswordFile: HotspotPasswordFile(
                path: URL(fileURLWithPath: options.statePath).deletingLastPathComponent()
                    .appendingPathComponent("hotspot-password").path))
        do {
            return try Playout(
                setup: setup, output: output, inbox: inbox, doors: doors, clock: clock, systemd: systemd, now: now)
        } catch {
            doors.stop()
            throw error
        }
    }

    /// Fetched mute music and ads: `cache/` beside the state file (`/var/lib/delaybox`).
    private var cacheDirectory: URL {
        URL(fileURLWithPath: options.statePath).deletingLastPathComponent().appendingPathComponent("cache")
    }

    /// The board's output; when it cannot open at start and the board names a fallback
    /// (the simulated host: no sound card here), the fallback, and the log says so.
    private func openOutput(clock: SystemClock, sleeper: SystemSleeper, cues: FeedbackCues) -> OutputPath {
        var request = OutputDevice.Request()
        request.sampleFormat = config.audio.format
        request.periodFrames = Int(config.audio.period.audioFrames)
        request.periods = config.audio.periods
        func path(_ device: OutputDevice, mixer: String?) -> OutputPath {
            OutputPath(
                device: device, request: request, mixerControl: mixer, clock: clock, sleeper: sleeper, cues: cues.player
            )
        }
        guard let device = OutputDevice(config.audio.device) else {
            logger.error("audio device '\(config.audio.device)' is not a device name; playing to null")
            return path(.null, mixer: nil)
        }
        if let fallbackName = config.audio.fallback, let fallback = OutputDevice(fallbackName) {
            let probe = path(device, mixer: config.audio.mixer)
            if probe.isDeviceUp { return probe }
            logger.notice("no sound card for '\(device)' here: audio goes to \(fallback)")
            return path(fallback, mixer: nil)
        }
        return path(device, mixer: config.audio.mixer)
    }
}
