import DelayboxAudio
import DelayboxConfig
import DelayboxConfigFile
import DelayboxControls
import DelayboxSerial
import DelayboxEngine
import DelayboxFFmpeg
import DelayboxSimulation
import DelayboxState
import FoundationEssentials
import DelayboxLog

/// The composition root of `delaybox run`: reads the board config and the saved
/// settings, wires the channel, the engine and the output, owns the playout loop, and
/// behaves as a systemd service (docs/daemon.md): READY once audio flows, the watchdog
/// fed only while the output takes audio, SIGTERM fades out, saves and exits, SIGHUP
/// reloads the config.
///
/// Threads: this one (playout) owns the engine and renders into the output's ring; the
/// audio thread writes the ring to the device; the stream client, console, control
/// socket and front panel have their own and post to this one (docs/architecture.md).
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
        /// Overrides the saved delay (ms).
        public var delayMs: Int64?
        /// Stop after this long (0: run until stopped).
        public var seconds: Double = 0
        public init(boardPath: String, statePath: String) {
            self.boardPath = boardPath
            self.statePath = statePath
            consoleConfigPath = URL(fileURLWithPath: statePath).deletingLastPathComponent().appendingPathComponent("config.yaml").path
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
        (config, document) = try Self.loadConfig(options, logger: Self.configLogger)
        settingsFile = SettingsFile(path: options.statePath)
        let loaded = settingsFile.load(fallback: Settings(defaults: config.defaults), maxDelayMs: config.defaults.maxDelayMs)
        if let problem = loaded.problem { stateLogger.notice("\(problem)") }
        var settings = loaded.settings
        if let delay = options.delayMs { settings.delayMs = delay }
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
            for diagnostic in loaded.diagnostics where diagnostic.severity == .warning { logger.warning("\(diagnostic)") }
            let ignored = overlays.dropFirst(count).map(\.name).joined(separator: " and ")
            let kept = (["board file"] + layers.map(\.name)).joined(separator: ", ")
            for diagnostic in failures { logger.error("\(diagnostic) (\(ignored) ignored, playing with the \(kept)\(count == 0 ? " alone" : ""))") }
            return (config, ConfigFile.document(options.boardPath, overlays: layers.map(\.path)).document)
        }
        let boardOnly = ConfigFile.load(options.boardPath)
        throw StartFailed(description: "the board config is invalid:\n" + boardOnly.diagnostics.map(\.description).joined(separator: "\n"))
    }

    public func run() throws {
        // FFmpeg's own messages (a certificate refused, a malformed frame) go to our log at
        // DEBUG, not raw to stderr around the journal's priorities; their reason is also
        // carried by the line that says what failed (`reconnect failed: … (Peer certificate
        // failed verification)`), which needs them routed here.
        let ffmpegLogger = Logger(label: "delaybox.ffmpeg")
        FFmpegLog.install { line in ffmpegLogger.debug("\(line)") }
        let settings = loadedSettings
        let clock = SystemClock()
        let sleeper = SystemSleeper(clock: clock)
        let output = openOutput(clock: clock)
        output.setVolume(settings.volume, muted: false)
        var configuration = EngineConfiguration()
        configuration.initialBufferMs = config.defaults.initialBufferMs
        configuration.maxDelayMs = config.defaults.maxDelayMs
        var lineup = config.channels
        if let saved = settings.channel { _ = lineup.select(named: saved) }
        let delayMs = min(settings.delayMs, config.defaults.maxDelayMs)
        var session = try ChannelSession(channel: lineup.selected, configuration: configuration, delayMs: delayMs,
                                         client: StreamClient.Options(), clock: clock)
        defer { session.client?.stop() }
        let standby = try StandbyChannels(lineup: lineup, playing: session.channel.name, configuration: configuration,
                                          delayMs: delayMs, clock: clock, now: clock.now())
        defer { standby.stop() }
        let executor = CommandExecutor(engine: session.engine, settings: settings)
        let desk = ProgrammeDesk(cache: ClipCache(directory: cacheDirectory, capBytes: Int64(config.defaults.clipCacheMB) * 1_000_000),
                                 feedbackSounds: config.defaults.feedbackSounds)
        desk.channelStarted(session.channel, adsEnabled: settings.adsEnabled, switched: false)
        desk.start()
        defer { desk.stop() }
        var panel = startFrontPanel()
        defer { panel?.stop() }
        var remote = startRemote()
        defer { remote?.stop() }
        let inbox = ConsoleInbox()
        let console = startConsole(inbox: inbox)
        defer { console?.stop() }
        let control = startControlSocket(inbox: inbox)
        defer { control?.stop() }
        let signals = SignalInbox()
        let systemd = SystemdNotifier()
        let intervalNanoseconds = output.playoutIntervalNanoseconds
        let start = clock.now()
        let limitFrames = options.seconds > 0 ? Int64(options.seconds * Double(AudioFormat.sampleRate)) : Int64.max
        var health = OutputHealth(start: start)
        var answers = ConsoleAnswers(engine: session.engine, executor: executor, config: config, channel: session.channel, started: start)
        answers.document = document
        answers.panel = panel
        answers.remote = remote
        answers.standby = standby
        answers.consoleConfigPath = options.consoleConfigPath
        var volume = (settings.volume, false)
        var testTone = TestTone()
        session.start(now: start)
        output.start()
        logger.info("delaybox \(DelayboxVersion.string) on \(config.name): channel '\(session.channel.name)', delay \(delayMs) ms, output \(output.device)")

        var wake = start
        output.frameLimit = limitFrames
        while output.renderedFrames < limitFrames {
            sleeper.sleep(until: wake)
            let now = clock.now()
            wake = max(wake.advanced(byNanoseconds: intervalNanoseconds), now.advanced(byNanoseconds: intervalNanoseconds / 2))
            if signals.stopRequested { break }
            for line in session.applyClientMessages(now: now) { logger.info("\(line)") }
            standby.poll(now: now)
            for command in (panel?.drain() ?? []) + (remote?.drain() ?? []) {
                if command == .nextChannel {
                    lineup.selectNext()
                    answers.requestedChannel = lineup.selected.name
                    desk.feedback(for: command, outcome: .done, now: now)
                    continue
                }
                let outcome = executor.execute(command, now: now)
                desk.feedback(for: command, outcome: outcome, now: now)
                logger.info("\(command): \(outcome)")
            }
            for line in desk.poll(engine: session.engine, now: now) { logger.notice("\(line)") }
            desk.mix.adsEnabled = session.channel.adsEnabled && executor.settings.adsEnabled
            for pending in inbox.drain() { pending.reply(answers.answer(pending.request, now: now)) }
            // A change reaches everything that reads the config, whichever door it came
            // through: `config set` on the console, or SIGHUP and `config save` (the files
            // read again).
            let before = config
            var replaced = false
            // The playing channel's new definition (its URL changed, say): played at once.
            var redefined: Channel?
            if answers.configChanged {
                answers.configChanged = false
                (config, document) = (answers.config, answers.document)
                replaced = true
            }
            if signals.takeReloadRequest() || answers.reloadRequested {
                answers.reloadRequested = false
                reload(systemd)
                (answers.config, answers.document) = (config, document)
                replaced = true
            }
            // (Compared only when replaced: this runs every period.)
            if replaced, config != before {
                // New lines, or a new delay step: the panel's lines are requested again.
                if (before.gpio, before.defaults.delayStepMs) != (config.gpio, config.defaults.delayStepMs) {
                    panel?.stop()
                    panel = startFrontPanel()
                    answers.panel = panel
                }
                if before.remote != config.remote || before.defaults.delayStepMs != config.defaults.delayStepMs {
                    remote?.stop()
                    remote = startRemote()
                    answers.remote = remote
                }
                // The lineup the panel's next channel and a console switch choose from; the
                // channel playing stays selected while it is in it.
                if before.channels.channels != config.channels.channels {
                    lineup = config.channels
                    if !lineup.select(named: session.channel.name) {
                        logger.notice("channel '\(session.channel.name)' is no longer configured: it plays until the next switch")
                    } else if lineup.selected != session.channel {
                        redefined = lineup.selected
                    }
                }
            }
            var switchTo = redefined
            if let name = answers.requestedChannel {
                answers.requestedChannel = nil
                if lineup.select(named: name), name != session.channel.name { switchTo = lineup.selected }
            }
            if let switchTo {
                session = try switchChannel(from: session, to: switchTo, standby: standby, output: output, desk: desk,
                                            now: now, clock: clock)
                desk.channelStarted(session.channel, adsEnabled: executor.settings.adsEnabled, switched: true)
                executor.attach(session.engine, channel: session.channel.name, now: now)
                answers.engine = session.engine
                answers.channel = session.channel
            }
            if executor.settings.volume != volume.0 || executor.muted != volume.1 {
                volume = (executor.settings.volume, executor.muted)
                output.setVolume(volume.0, muted: volume.1)
            }
            let engine = session.engine
            testTone.isOn = answers.toneOn
            output.feed(now: now) { buffer, delay in
                let wasPlaying = engine.state == .playing
                let first = engine.renderedFrames
                engine.render(into: buffer, now: now, outputDelayFrames: delay)
                desk.render(buffer, engine: engine, firstFrame: first)
                testTone.apply(to: buffer.baseAddress!, frames: buffer.count / AudioFormat.channelCount)
                if !wasPlaying, engine.state == .playing, !health.heardFirstAudio { firstAudio(inFrames: delay, health: &health) }
            }
            for line in output.report() { logger.notice("\(line)") }
            for notification in engine.drainNotifications() {
                let text = NotificationLog.text(notification)
                logger.log(NotificationLog.level(of: notification), text)
                console?.show(text)
                if case .eventTookEffect(let event, _, _, _) = notification {
                    // Heard once what the ring and the device hold now has played (± a period).
                    let heard = Date().addingTimeInterval(Double(output.feeder.outputDelayFrames(now: now)) / Double(AudioFormat.sampleRate))
                    let entry = NotificationLog.eventEntry(text, streamFrame: event.position, heardAt: heard)
                    answers.recentEvents = (answers.recentEvents + [entry]).suffix(20)
                }
            }
            panel?.show(LEDPattern(state: engine.state.rawValue))
            if health.isFirstPeriod { systemd.notify("READY=1\nSTATUS=\(engine.state.rawValue)") }
            if now.milliseconds(since: health.lastStatus) >= 1_000 {
                updateStatus(&health, output: output, engine: engine, at: now, systemd: systemd)
                answers.output = output.statistics
            }
            if health.healthy, let interval = systemd.watchdogIntervalNanoseconds, now.nanoseconds - health.lastPing.nanoseconds >= interval {
                systemd.notify("WATCHDOG=1")
                health.lastPing = now
            }
            if executor.settingsDueForSave(at: now) { save(executor.settings) }
            health.isFirstPeriod = false
        }
        // Fade out (one period), let the device play it, then save and go.
        systemd.notify("STOPPING=1")
        inbox.close()
        let now = clock.now()
        session.stop(now: now)
        render(session.engine, through: desk, to: output, now: now)
        output.stop()
        save(executor.settings)
        stateLogger.info("stopped; settings saved to \(settingsFile.path)")
    }

    /// Logs, once, when the programme's first frame reaches the jack, counted from the
    /// process's start: the start-up figure an installer compares (docs/performance.md).
    private func firstAudio(inFrames frames: Int, health: inout OutputHealth) {
        health.heardFirstAudio = true
        guard let age = ProcessFigures.ageSeconds() else { return }
        let seconds = age + Double(frames) / Double(AudioFormat.sampleRate)
        logger.notice("first audio at the output \(String(printf: "%.3f", seconds)) s after start")
    }

    /// Fades the playing channel out (rendered now) — it goes on recording if it has
    /// `record`, else it ends — and plays `channel` at the same delay: at once when it was
    /// recorded in the background, else once its own buffer has filled to it.
    private func switchChannel(from session: ChannelSession, to channel: Channel, standby: StandbyChannels, output: OutputPath,
                               desk: ProgrammeDesk, now: Instant, clock: SystemClock) throws -> ChannelSession {
        let delayMs = session.engine.status(at: now).delayMs
        // (A channel redefined under its own name is not kept: its old stream is done with.)
        if session.channel.record, session.channel.name != channel.name { standby.keep(session, now: now) } else { session.stop(now: now) }
        render(session.engine, through: desk, to: output, now: now)
        // A channel recorded in the background plays at once at the delay in force (from
        // what it holds); another fills its own buffer to it first.
        if let kept = standby.take(channel.name) {
            kept.engine.setDelay(milliseconds: delayMs, now: now)
            let held = kept.engine.status(at: now).availableDelayMs
            logger.info("channel: \(channel.name) (\(channel.streamURL)), delay \(delayMs) ms, recorded in the background: \(held) ms held")
            return kept
        }
        let next = try ChannelSession(channel: channel, configuration: session.engine.configuration, delayMs: delayMs,
                                      client: StreamClient.Options(), clock: clock)
        next.start(now: now)
        logger.info("channel: \(channel.name) (\(channel.streamURL)), delay \(delayMs) ms")
        return next
    }

    /// Renders one period of `engine` (its fade-out, after `stop`) through the mix.
    private func render(_ engine: PlaybackEngine, through desk: ProgrammeDesk, to output: OutputPath, now: Instant) {
        output.feed(now: now, minimumPeriods: 1) { buffer, delay in
            let first = engine.renderedFrames
            engine.render(into: buffer, now: now, outputDelayFrames: delay)
            desk.render(buffer, engine: engine, firstFrame: first)
        }
    }

    /// Fetched mute music and ads: `cache/` beside the state file (`/var/lib/delaybox`).
    private var cacheDirectory: URL {
        URL(fileURLWithPath: options.statePath).deletingLastPathComponent().appendingPathComponent("cache")
    }

    /// The board's output; when it cannot open at start and the board names a fallback
    /// (the simulated host: no sound card here), the fallback, and the log says so.
    private func openOutput(clock: SystemClock) -> OutputPath {
        var request = OutputDevice.Request()
        request.sampleFormat = config.audio.format
        request.periodFrames = Int(AudioFormat.frames(milliseconds: config.audio.periodMs))
        request.periods = config.audio.periods
        guard let device = OutputDevice(config.audio.device) else {
            logger.error("audio device '\(config.audio.device)' is not a device name; playing to null")
            return OutputPath(device: .null, request: request, mixerControl: nil, clock: clock)
        }
        if let fallbackName = config.audio.fallback, let fallback = OutputDevice(fallbackName) {
            let probe = OutputPath(device: device, request: request, mixerControl: config.audio.mixer, clock: clock)
            if probe.isDeviceUp { return probe }
            logger.notice("no sound card for '\(device)' here: audio goes to \(fallback)")
            return OutputPath(device: fallback, request: request, mixerControl: nil, clock: clock)
        }
        return OutputPath(device: device, request: request, mixerControl: config.audio.mixer, clock: clock)
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

    /// The remote control's thread, when the board has one; it finds its device when it
    /// appears.
    private func startRemote() -> RemoteReceiver? {
        guard let settings = config.remote else { return nil }
        do {
            let remote = try RemoteReceiver(remote: settings, delayStepMs: config.defaults.delayStepMs)
            remote.start()
            return remote
        } catch {
            Logger(label: "delaybox.controls").error("remote: \(error); playing without the remote")
            return nil
        }
    }

    /// The watchdog's health is the output's: a device that is down (a WAV file that
    /// cannot be written, a codec that vanished) leaves the watchdog unfed, so systemd
    /// restarts the service if it lasts. STATUS= says what plays.
    private func updateStatus(_ health: inout OutputHealth, output: OutputPath, engine: PlaybackEngine, at time: Instant,
                              systemd: SystemdNotifier) {
        health.lastStatus = time
        // Up now and not lost since the last look: a device that reopens and fails again
        // at once is not working. After a failure it counts as working again once it has
        // stayed up for `OutputHealth.recoveryMs`.
        let losses = output.deviceLosses
        let up = output.isDeviceUp && losses == health.deviceLosses
        health.deviceLosses = losses
        health.upSince = up ? health.upSince ?? time : nil
        let working = up && (health.healthy || time.milliseconds(since: health.upSince ?? time) >= OutputHealth.recoveryMs)
        if working, !health.healthy { logger.notice("output works again") }
        if !working, health.healthy { logger.error("output \(output.device) is down; the watchdog is no longer fed") }
        health.healthy = working
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
            let (fresh, freshDocument) = try Self.loadConfig(options, logger: Self.configLogger)
            let changed = fresh != config
            config = fresh
            document = freshDocument
            Self.configLogger.info("config reloaded\(changed ? "" : " (unchanged)"): \(fresh.channels.channels.count) channel(s), delay step \(fresh.defaults.delayStepMs) ms")
        } catch {
            Self.configLogger.error("config not reloaded, keeping the running one: \(error)")
        }
    }
}

/// Whether audio reaches the output, for the watchdog.
struct OutputHealth {
    var healthy = true
    /// The output's losses at the last status update.
    var deviceLosses = 0
    /// Since when the output has been up without a loss; nil while it is down.
    var upSince: Instant?
    /// How long a failed output must work again before it counts as healthy (ms).
    static let recoveryMs: Int64 = 5_000
    var isFirstPeriod = true
    /// Whether the programme's first audio has been logged.
    var heardFirstAudio = false
    var lastStatus: Instant
    var lastPing: Instant

    init(start: Instant) {
        lastStatus = start
        lastPing = start
    }
}
