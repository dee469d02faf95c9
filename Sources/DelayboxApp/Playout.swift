import DelayboxAudio
import DelayboxCommands
import DelayboxConfig
import DelayboxConfigFile
import DelayboxConsole
import DelayboxControls
import DelayboxEngine
import DelayboxState
import FoundationEssentials
import DelayboxLog

/// The box at work, one wake-up at a time, on the playout thread: what the stream client
/// posted reaches the engine; every door's commands and questions are answered, in one
/// place; a config change reaches everything that reads the config; a channel switch
/// happens; and the output's ring is topped up through the programme mix.
///
/// It takes time only from its caller (`step(now:)`) and the clock it is given (for the
/// stream clients), so a test runs a whole appliance in virtual time on a demo channel
/// (ApplianceScenarioTests); `Appliance` runs it in real time.
final class Playout {
    /// What the composition root hands over.
    struct Setup {
        var config: BoardConfig
        /// The config as written (values with their files and lines), for `config get`.
        var document: ConfigNode?
        var settings: Settings
        var settingsFile: SettingsFile
        /// Where `config save` writes; nil: nowhere.
        var consoleConfigPath: String?
        /// Fetched mute music and ads.
        var cacheDirectory: URL
        /// Reads the config files again (SIGHUP, `config save`); throws when they are invalid.
        var reload: @Sendable () throws -> (config: BoardConfig, document: ConfigNode?)
    }

    private let logger = Logger(label: "delaybox.appliance")
    private let stateLogger = Logger(label: "delaybox.state")
    private let settingsFile: SettingsFile
    private let output: OutputPath
    private let inbox: ConsoleInbox
    private let doors: Doors
    private let clock: any MonotonicClock
    private var configuration: ConfigInForce
    private var channels: ChannelChoice
    private(set) var session: ChannelSession
    private let standby: StandbyChannels
    let executor: CommandExecutor
    private let desk: ProgrammeDesk
    private var answers: ConsoleAnswers
    private var health: ServiceHealth
    private var volume: (level: Int, muted: Bool)
    private var testTone = TestTone()
    /// Whether the programme's first audio has been logged.
    private var heardFirstAudio = false

    /// Starts the saved (or first) channel at the saved delay, and the channels recorded
    /// in the background.
    init(setup: Setup, output: OutputPath, inbox: ConsoleInbox, doors: Doors, clock: any MonotonicClock,
         systemd: SystemdNotifier, now: Instant) throws {
        settingsFile = setup.settingsFile
        self.output = output
        self.inbox = inbox
        self.doors = doors
        self.clock = clock
        configuration = ConfigInForce(config: setup.config, document: setup.document, read: setup.reload)
        let config = setup.config
        let settings = setup.settings
        var lineup = config.channels
        if let saved = settings.channel { lineup.select(named: saved) }
        channels = ChannelChoice(lineup: lineup)
        let delayMs = min(settings.delayMs, config.defaults.maxDelayMs)
        var configuration = EngineConfiguration()
        configuration.initialBufferMs = config.defaults.initialBufferMs
        configuration.maxDelayMs = config.defaults.maxDelayMs
        session = try ChannelSession(channel: lineup.selected, configuration: configuration, delayMs: delayMs,
                                     client: StreamClient.Options(), clock: clock)
        standby = try StandbyChannels(lineup: lineup, playing: lineup.selected.name, configuration: configuration,
                                      delayMs: delayMs, clock: clock, now: now)
        executor = CommandExecutor(engine: session.engine, settings: settings)
        desk = ProgrammeDesk(cache: ClipCache(directory: setup.cacheDirectory, capBytes: Int64(config.defaults.clipCacheMB) * 1_000_000),
                             feedbackSounds: config.defaults.feedbackSounds)
        answers = ConsoleAnswers(engine: session.engine, executor: executor, config: config, channel: session.channel, started: now)
        answers.document = setup.document
        answers.doors = doors
        answers.standby = standby
        answers.consoleConfigPath = setup.consoleConfigPath
        health = ServiceHealth(systemd: systemd, start: now)
        volume = (settings.volume, false)
        output.setVolume(settings.volume, muted: false)
        desk.channelStarted(session.channel, adsEnabled: settings.adsEnabled, switched: false)
        desk.start()
        session.start(now: now)
        logger.info("delaybox \(DelayboxVersion.string) on \(config.name): channel '\(session.channel.name)', delay \(delayMs) ms, output \(output.device)")
    }

    /// SIGHUP: the config files are read again before the next period.
    func requestReload() { configuration.requestReload() }

    /// One wake-up: takes what arrived (stream, doors, config), switches channel if asked,
    /// and tops up the output.
    func step(now: Instant) throws {
        for line in session.applyClientMessages(now: now) { logger.info("\(line)") }
        standby.poll(now: now)
        for command in doors.drain() {
            let outcome = apply(command, now: now)
            desk.feedback(for: command, outcome: outcome, now: now)
            logger.info("\(command): \(outcome)")
        }
        for line in desk.poll(engine: session.engine, now: now) { logger.notice("\(line)") }
        desk.mix.adsEnabled = session.channel.adsEnabled && executor.settings.adsEnabled
        answers.output = output.statistics
        for pending in inbox.drain() { pending.reply(answers.answer(pending.request, channels: &channels, now: now)) }
        let redefined = takeConfigChanges()
        if let channel = channels.takeRequest() ?? redefined, channel != session.channel {
            try switchChannel(to: channel, now: now)
        }
        if (executor.settings.volume, executor.muted) != volume {
            volume = (executor.settings.volume, executor.muted)
            output.setVolume(volume.level, muted: volume.muted)
        }
        render(now: now)
        for line in output.report() { logger.notice("\(line)") }
        report(session.engine.drainNotifications(), now: now)
        doors.show(LEDPattern(state: session.engine.state.rawValue))
        health.periodRendered(output: output, engine: session.engine, at: now)
        if executor.settingsDueForSave(at: now) { save() }
    }

    /// Fades out (one period, rendered now) and saves the settings; the output then plays
    /// out what it holds.
    func fadeOut(now: Instant) {
        health.notify("STOPPING=1")
        session.stop(now: now)
        renderFadeOut(of: session.engine, now: now)
        save()
    }

    /// Ends the doors', the stream clients' and the clip loader's threads.
    func close() {
        doors.stop()
        session.client?.stop()
        standby.stop()
        desk.stop()
    }

    /// A command from the panel or the remote: the channel is chosen as the console
    /// chooses it, everything else is the executor's.
    private func apply(_ command: Command, now: Instant) -> CommandExecutor.Outcome {
        guard command == .nextChannel else { return executor.execute(command, now: now) }
        _ = channels.next()
        return .done
    }

    /// A change reaches everything that reads the config, whichever door it came through
    /// (`config set` on the console, SIGHUP, `config save`): the doors, and the lineup the
    /// channels are chosen from. Returns the playing channel's new definition when it was
    /// redefined (its URL changed, say): it plays from it at once.
    private func takeConfigChanges() -> Channel? {
        guard let before = configuration.takeChanges(from: &answers, notify: health.notify) else { return nil }
        let config = configuration.config
        doors.configChanged(from: before, to: config)
        guard before.channels.channels != config.channels.channels else { return nil }
        guard let definition = channels.replace(with: config.channels, playing: session.channel.name) else {
            logger.notice("channel '\(session.channel.name)' is no longer configured: it plays until the next switch")
            return nil
        }
        return definition == session.channel ? nil : definition
    }

    /// Fades the playing channel out (rendered now) — it goes on recording if it has
    /// `record`, else it ends — and plays `channel` at the same delay: at once when it was
    /// recorded in the background, else once its own buffer has filled to it.
    private func switchChannel(to channel: Channel, now: Instant) throws {
        let delayMs = session.engine.status(at: now).delayMs
        // (A channel redefined under its own name is not kept: its old stream is done with.)
        if session.channel.record, session.channel.name != channel.name { standby.keep(session, now: now) } else { session.stop(now: now) }
        renderFadeOut(of: session.engine, now: now)
        if let kept = standby.take(channel.name) {
            kept.engine.setDelay(milliseconds: delayMs, now: now)
            let held = kept.engine.status(at: now).availableDelayMs
            logger.info("channel: \(channel.name) (\(channel.streamURL)), delay \(delayMs) ms, recorded in the background: \(held) ms held")
            session = kept
        } else {
            session = try ChannelSession(channel: channel, configuration: session.engine.configuration, delayMs: delayMs,
                                         client: StreamClient.Options(), clock: clock)
            session.start(now: now)
            logger.info("channel: \(channel.name) (\(channel.streamURL)), delay \(delayMs) ms")
        }
        desk.channelStarted(session.channel, adsEnabled: executor.settings.adsEnabled, switched: true)
        executor.attach(session.engine, channel: session.channel.name, now: now)
        answers.engine = session.engine
        answers.channel = session.channel
    }

    /// Tops the output's ring up: the programme, the mix over it, the test tone instead of
    /// it when on.
    private func render(now: Instant) {
        let engine = session.engine
        testTone.isOn = answers.toneOn
        output.feed(now: now) { buffer, delay in
            let wasPlaying = engine.state == .playing
            let first = engine.renderedFrames
            engine.render(into: buffer, now: now, outputDelayFrames: delay)
            desk.render(buffer, engine: engine, firstFrame: first)
            testTone.apply(to: buffer.baseAddress!, frames: buffer.count / AudioFormat.channelCount)
            if !wasPlaying, engine.state == .playing, !heardFirstAudio { firstAudio(inFrames: delay) }
        }
    }

    /// Renders one period of `engine` (its fade-out, after `stop`) through the mix.
    private func renderFadeOut(of engine: PlaybackEngine, now: Instant) {
        output.feed(now: now, minimumPeriods: 1) { buffer, delay in
            let first = engine.renderedFrames
            engine.render(into: buffer, now: now, outputDelayFrames: delay)
            desk.render(buffer, engine: engine, firstFrame: first)
        }
    }

    /// The engine's notifications to the log and the console; stream events also to the
    /// console's `events`, dated when they are heard.
    private func report(_ notifications: [EngineNotification], now: Instant) {
        for notification in notifications {
            let text = NotificationLog.text(notification)
            logger.log(NotificationLog.level(of: notification), text)
            doors.show(text)
            if case .eventTookEffect(let event, _, _, _) = notification {
                // Heard once what the ring and the device hold now has played (± a period).
                let heard = Date().addingTimeInterval(Double(output.feeder.outputDelayFrames(now: now)) / Double(AudioFormat.sampleRate))
                let entry = NotificationLog.eventEntry(text, streamFrame: event.position, heardAt: heard)
                answers.recentEvents = (answers.recentEvents + [entry]).suffix(20)
            }
        }
    }

    /// Logs, once, when the programme's first frame reaches the jack, counted from the
    /// process's start: the start-up figure an installer compares (docs/performance.md).
    private func firstAudio(inFrames frames: Int) {
        heardFirstAudio = true
        guard let age = ProcessFigures.ageSeconds() else { return }
        let seconds = age + Double(frames) / Double(AudioFormat.sampleRate)
        logger.notice("first audio at the output \(String(printf: "%.3f", seconds)) s after start")
    }

    private func save() {
        do {
            try settingsFile.save(executor.settings)
        } catch {
            stateLogger.error("cannot save settings: \(error)")
        }
    }
}
