import DelayboxConfig
import DelayboxConfigFile
import DelayboxControls
import DelayboxSerial
import DelayboxEngine
import DelayboxSimulation
import DelayboxState
import Foundation
import Logging

/// The composition root of `delaybox run`: reads the board config and the saved
/// settings, wires the channel, the engine and the output, owns the playout loop, and
/// behaves as a systemd service (docs/daemon.md): READY once audio flows, the watchdog
/// fed only while the output takes audio, SIGTERM fades out, saves and exits, SIGHUP
/// reloads the config.
///
/// Until the mixer and ALSA issues land, the channel must be the demo channel (the
/// built-in test-tone source) and the output a WAV file or null.
public final class Appliance {
    public struct Options: Sendable {
        public var boardPath: String
        public var sitePath: String?
        public var statePath: String
        /// The control socket for `delayboxctl`; nil: none.
        public var socketPath: String?
        /// Overrides the saved delay (ms).
        public var delayMs: Int64?
        /// Stop after this long (0: run until stopped).
        public var seconds: Double = 0
        public init(boardPath: String, statePath: String) {
            self.boardPath = boardPath
            self.statePath = statePath
        }
    }

    public struct StartFailed: Error, CustomStringConvertible {
        public var description: String
    }

    static let periodFrames = 960
    /// What the loop keeps queued ahead of the jack; the engine compensates for it.
    static let queuedFrames = 3 * periodFrames

    private let options: Options
    private let logger = Logger(label: "delaybox.appliance")
    private static let configLogger = Logger(label: "delaybox.config")
    private let stateLogger = Logger(label: "delaybox.state")
    private var config: BoardConfig
    /// The settings as loaded; once running, the command executor owns them.
    private let loadedSettings: Settings
    private let settingsFile: SettingsFile

    public init(options: Options) throws {
        self.options = options
        config = try Self.loadConfig(options, logger: Self.configLogger)
        settingsFile = SettingsFile(path: options.statePath)
        let loaded = settingsFile.load(fallback: Settings(defaults: config.defaults), maxDelayMs: config.defaults.maxDelayMs)
        if let problem = loaded.problem { stateLogger.notice("\(problem)") }
        var settings = loaded.settings
        if let delay = options.delayMs { settings.delayMs = delay }
        loadedSettings = settings
    }

    /// The board file with the site file over it. A broken site file is reported and left
    /// out (the board still plays); a broken board file stops the start.
    static func loadConfig(_ options: Options, logger: Logger) throws -> BoardConfig {
        let withSite = ConfigFile.load(options.boardPath, site: options.sitePath)
        for diagnostic in withSite.diagnostics where diagnostic.severity == .warning { logger.warning("\(diagnostic)") }
        if let config = withSite.config { return config }
        let boardOnly = ConfigFile.load(options.boardPath)
        guard let config = boardOnly.config else {
            throw StartFailed(description: "the board config is invalid:\n" + boardOnly.diagnostics.map(\.description).joined(separator: "\n"))
        }
        for diagnostic in withSite.diagnostics where diagnostic.severity == .error {
            logger.error("\(diagnostic) (site file ignored, playing with the board file alone)")
        }
        return config
    }

    public func run() throws {
        let settings = loadedSettings
        let channel = config.channels.channels.first { $0.name == settings.channel } ?? config.channels.selected
        guard channel.streamURL.hasPrefix("demo:") else {
            throw StartFailed(description: "channel '\(channel.name)' (\(channel.streamURL)): `run` plays only the demo channel until "
                              + "the appliance issue lands; try the stream with `delaybox play URL`")
        }
        let writer = try makeOutput()
        var configuration = EngineConfiguration()
        configuration.initialBufferMs = config.defaults.initialBufferMs
        configuration.maxDelayMs = config.defaults.maxDelayMs
        configuration.initialDelayMs = min(settings.delayMs, config.defaults.maxDelayMs)
        let engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder() })
        let executor = CommandExecutor(engine: engine, settings: settings)
        let panel = startFrontPanel()
        defer { panel?.stop() }
        let inbox = ConsoleInbox()
        let console = startConsole(inbox: inbox)
        defer { console?.stop() }
        let control = startControlSocket(inbox: inbox)
        defer { control?.stop() }
        let clock = SystemClock()
        let signals = SignalInbox()
        let systemd = SystemdNotifier()
        var source = SimulatedNetwork(packetFrames: 1_152, packetBytes: 384, latencyMs: 20, jitterMs: 5, burstMs: 4_000,
                                      connectAtMs: 0, outages: [], events: [], seed: 7)
        var period = [Float](repeating: 0, count: Self.periodFrames * AudioFormat.channelCount)
        var pacer = PeriodPacer(clock: clock, periodFrames: Self.periodFrames, seconds: options.seconds)
        let start = pacer.start
        var health = OutputHealth(start: start)
        var answers = ConsoleAnswers(engine: engine, executor: executor, config: config, channel: channel, started: start)
        engine.start(now: start)
        logger.info("delaybox \(DelayboxVersion.string) on \(config.name): channel '\(channel.name)', delay \(settings.delayMs) ms, output \(config.audio.device)")

        while let due = pacer.nextPeriod() {
            if signals.stopRequested { break }
            if signals.takeReloadRequest() { reload(systemd) }
            while source.nextTime() <= due.advanced(byNanoseconds: -start.nanoseconds) {
                let (time, delivery) = source.next()
                source.apply(delivery, at: time.advanced(byNanoseconds: start.nanoseconds), to: engine)
            }
            for command in panel?.drain() ?? [] {
                let outcome = executor.execute(command, now: due)
                logger.info("\(command): \(outcome)")
            }
            period.withUnsafeMutableBufferPointer { engine.render(into: $0, now: due, outputDelayFrames: Self.queuedFrames) }
            period.withUnsafeBufferPointer { writer?.write($0) }
            for pending in inbox.drain() { pending.reply(answers.answer(pending.request, now: due)) }
            for notification in engine.drainNotifications() {
                let text = NotificationLog.text(notification)
                logger.info("\(text)")
                console?.show(text)
                if case .eventTookEffect = notification { answers.recentEvents = (answers.recentEvents + [text]).suffix(20) }
            }
            panel?.show(LEDPattern(state: engine.state.rawValue))
            if health.isFirstPeriod { systemd.notify("READY=1\nSTATUS=\(engine.state.rawValue)") }
            if due.milliseconds(since: health.lastFlush) >= 1_000 { flush(writer, &health, at: due, engine: engine, systemd: systemd) }
            if health.healthy, let interval = systemd.watchdogIntervalNanoseconds, due.nanoseconds - health.lastPing.nanoseconds >= interval {
                systemd.notify("WATCHDOG=1")
                health.lastPing = due
            }
            if executor.settingsDueForSave(at: due) { save(executor.settings) }
            health.isFirstPeriod = false
        }
        // Fade out (one period), then save and go.
        systemd.notify("STOPPING=1")
        let now = clock.now()
        engine.stop(now: now)
        period.withUnsafeMutableBufferPointer { engine.render(into: $0, now: now, outputDelayFrames: Self.queuedFrames) }
        period.withUnsafeBufferPointer { writer?.write($0) }
        try? writer?.close()
        save(executor.settings)
        stateLogger.info("stopped; settings saved to \(settingsFile.path)")
    }

    private func makeOutput() throws -> WavFileWriter? {
        let device = config.audio.device
        if device == "null" { return nil }
        guard device.hasPrefix("wav:") else {
            throw StartFailed(description: "audio device '\(device)': the ALSA output arrives with its issue; use wav:PATH or null")
        }
        let path = String(device.dropFirst(4))
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        return try WavFileWriter(path: path)
    }

    /// The serial console (or, on a host, a pseudo-terminal whose path is logged), when
    /// the board has one. A console that cannot open is reported; the box plays on.
    private func startConsole(inbox: ConsoleInbox) -> SerialConsole? {
        guard let settings = config.console else { return nil }
        let consoleLogger = Logger(label: "delaybox.console")
        do {
            let port = settings.device == "pty" ? try SerialPort(pseudoTerminal: ()) : try SerialPort(device: settings.device, baud: settings.baud)
            let console = SerialConsole(port: port, inbox: inbox, channels: config.channels.channels.map(\.name))
            console.start()
            consoleLogger.notice("console on \(port.path) (\(settings.baud) 8N1): picocom -b \(settings.baud) \(port.path)")
            return console
        } catch {
            consoleLogger.error("\(error); playing without the serial console")
            return nil
        }
    }

    /// The control socket for `delayboxctl`. One that cannot open is reported; the box
    /// plays on.
    private func startControlSocket(inbox: ConsoleInbox) -> ControlSocket? {
        guard let path = options.socketPath else { return nil }
        do {
            let socket = try ControlSocket(path: path, inbox: inbox)
            socket.start()
            Logger(label: "delaybox.console").info("control socket on \(path)")
            return socket
        } catch {
            Logger(label: "delaybox.console").error("\(error); delayboxctl cannot reach this box")
            return nil
        }
    }

    /// The buttons, encoder and LEDs, when the board has them. A panel that cannot start
    /// (no chip, a busy line, no permission) is reported; the box plays on without it.
    private func startFrontPanel() -> FrontPanel? {
        guard let gpio = config.gpio else { return nil }
        let panel = FrontPanel(gpio: gpio, delayStepMs: config.defaults.delayStepMs)
        do {
            try panel.start()
            return panel
        } catch {
            Logger(label: "delaybox.controls").error("\(error); playing without the front panel (the console still works)")
            return nil
        }
    }

    /// Writes what the output holds; a failure makes the audio path unhealthy, so the
    /// watchdog goes unfed and systemd restarts the service if it lasts.
    private func flush(_ writer: WavFileWriter?, _ health: inout OutputHealth, at time: Instant, engine: PlaybackEngine,
                       systemd: SystemdNotifier) {
        health.lastFlush = time
        do {
            try writer?.flush()
            if !health.healthy { logger.notice("output works again") }
            health.healthy = true
        } catch {
            if health.healthy { logger.error("output failed: \(error); the watchdog is no longer fed") }
            health.healthy = false
        }
        let status = engine.status(at: time)
        systemd.notify("STATUS=\(status.state.rawValue), delay \(status.delayMs) ms, available \(status.availableDelayMs) ms")
    }

    private func save(_ settings: Settings) {
        do {
            try settingsFile.save(settings)
        } catch {
            stateLogger.error("cannot save settings: \(error)")
        }
    }

    /// SIGHUP: reads the config again; what can change live takes effect (channels, delay
    /// step, defaults for the next start), an invalid file changes nothing.
    private func reload(_ systemd: SystemdNotifier) {
        systemd.notify("RELOADING=1")
        defer { systemd.notify("READY=1") }
        do {
            let fresh = try Self.loadConfig(options, logger: Self.configLogger)
            let changed = fresh != config
            config = fresh
            Self.configLogger.info("config reloaded\(changed ? "" : " (unchanged)"): \(fresh.channels.channels.count) channel(s), delay step \(fresh.defaults.delayStepMs) ms")
        } catch {
            Self.configLogger.error("config not reloaded, keeping the running one: \(error)")
        }
    }
}

/// Whether audio reaches the output, for the watchdog.
struct OutputHealth {
    var healthy = true
    var isFirstPeriod = true
    var lastFlush: Instant
    var lastPing: Instant

    init(start: Instant) {
        lastFlush = start
        lastPing = start
    }
}
