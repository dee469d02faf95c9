import DelayboxAnswers
import DelayboxAudio
import DelayboxClips
import DelayboxCommands
import DelayboxConfig
import DelayboxConsole
import DelayboxControls
import DelayboxDoors
import DelayboxEngine
import DelayboxFiles
import DelayboxJSON
import DelayboxLog
import DelayboxMQTT
import DelayboxOutput
import DelayboxPlatform
import DelayboxProgramme
import DelayboxService
import DelayboxState
import DelayboxStream
import DelayboxUnits
import FoundationEssentials

/// The box at work, one wake-up at a time, on the playout thread: what the stream client
/// posted reaches the engine; every door's commands and questions are answered, in one
/// place; a config change reaches everything that reads the config; a channel switch
/// happens; and the output's ring is topped up through the programme mix. `delaybox run`
/// (`Appliance`) and `delaybox play` (`StreamPlayer`) both play through it.
///
/// The programme's time comes only from its caller (`step(now:)`) and the clock it is given
/// (for the stream clients), so a test runs a whole appliance in virtual time on a demo
/// channel (ApplianceScenarioTests). What is stamped on the kernel's clocks from outside —
/// the controls' edges, the page's boot window, the delay journal, a heard event's wall
/// time, the room's figures — is read against CLOCK_MONOTONIC (`SystemClock`) or the wall
/// clock where it meets them.
final class Playout {
    /// What the composition root hands over.
    struct Setup {
        var config: BoardConfig
        /// The config as written (values with their files and lines), for `config get`.
        var document: ConfigNode?
        var settings: Settings
        /// Where the settings are saved; nil: nowhere (`play`).
        var settingsFile: SettingsFile?
        /// Where `config save` writes; nil: nowhere.
        var consoleConfigPath: String?
        /// Where fetched mute music and ads are kept; nil: no programme mix (`play` plays
        /// the stream as the engine renders it).
        var cacheDirectory: URL?
        /// The controls' feedback sounds, played by the output's audio thread; nil: none.
        var cues: FeedbackCues?
        var client = StreamClient.Options()
        /// Where the playing channel's delay journal is kept (`DelayJournal`); nil: none.
        var journalDirectory: String?
        /// What `factory reset` removes; nil: nothing (`play`, which keeps no settings).
        var factoryReset: FactoryReset?
        /// The backups taken and restored, and the copies kept for undo; nil: none (`play`).
        var backups: BoxBackupFiles?
        /// Where `update daily on|off` is kept (the package's updater reads it), and what it
        /// says now; nil: nowhere.
        var dailyUpdatesPath: String?
        var dailyUpdates = true
        /// The box's last run ended in a factory reset: it says so, the page's password may be
        /// chosen, and its Wi-Fi networks are forgotten when the reset said so; nil: it did not.
        var reset: FactoryReset.Mark?
        var log: any PlayoutLog
        /// Reads the config files again (SIGHUP, `config save`: off the playout thread);
        /// throws when they are invalid.
        var reload: ConfigInForce.Read
    }

    /// The playout thread's SCHED_FIFO priority in real time, where permitted: below the audio
    /// thread's (`OutputPath.audioPriority`), above everything else the board runs. Its render
    /// is due within the ring's two periods (40 ms) of a wake; at normal priority an upgrade
    /// unpacking beside it, or the host's load under tests, made it late and the jack silent
    /// (late renders: issue 43). Its work per wake is bounded by the stream's rate.
    static let realTimePriority: Int32 = 40

    let logger = Logger(label: "delaybox.appliance")
    private let log: any PlayoutLog
    /// The settings saved off this thread, and the box's other files: requests, the
    /// factory reset, backups.
    private let keeping: BoxKeeping
    /// Why the root stops the box to start it again (a factory reset done, a backup
    /// restored); nil: it plays on.
    var restartReason: String? { keeping.restartReason }
    /// The box is to be started again (`restartReason`).
    var restartAsked: Bool { restartReason != nil }
    /// Whether the box looks for a new release every night (`update daily`).
    private var dailyUpdates: Bool
    /// This run began after a factory reset, at `started`.
    private let wasReset: Bool
    private let started: Instant
    /// How long after a reset's start a control held on does not reset the box again.
    static let resetQuiet = TimeAmount.seconds(60)
    private let client: StreamClient.Options
    private let output: OutputPath
    let inbox: ConsoleInbox
    let doors: Doors
    private let clock: any MonotonicClock
    /// The wall clock an ad break's START is compared with, as `board.clock` says to
    /// believe it (taken at start, like the rest of `board:`).
    private let wallClock: @Sendable () -> Double?
    /// Where the playing channel's delay journal is kept; nil: none.
    private let journalDirectory: String?
    private(set) var configuration: ConfigInForce
    private var channels: ChannelChoice
    private(set) var session: ChannelSession
    private let standby: StandbyChannels
    private let executor: CommandExecutor
    let desk: ProgrammeDesk?
    private var answers: ConsoleAnswers
    /// What the answers know of the world outside them (the doors, the journal, files read
    /// off this thread).
    private let facts: ApplianceFacts
    /// The stream events heard, for `events` and the doors.
    private var heardEvents = HeardEvents()
    /// Whether a new release may restart the box now (`status`'s `update_restart`).
    private var updateGate = UpdateRestartGate()
    /// This thread's SCHED_FIFO priority, 0 at normal priority (`stats`).
    private var priority: Int32 = 0
    private var health: ServiceHealth
    private var volume: (level: Int, muted: Bool)
    private var testTone = TestTone()
    /// The room's boxes playing as one (an MQTT group).
    private var room = RoomSync()
    /// When the station's clock is next looked at, to be kept for its next start.
    private var nextStationClockLook = Instant.zero
    /// When the release line, and the machine's figures, are next read again (on the
    /// saver's thread).
    private var nextReleaseRead = Instant.zero, nextMachineRead = Instant.zero
    /// Starts the saved (or first) channel at the saved delay, and the channels recorded
    /// in the background.
    init(
        setup: Setup, output: OutputPath, inbox: ConsoleInbox, doors: Doors, clock: any MonotonicClock,
        systemd: SystemdNotifier, now: Instant
    ) throws {
        (log, client) = (setup.log, setup.client)
        (wasReset, started) = (setup.reset != nil, now)
        dailyUpdates = setup.dailyUpdates
        keeping = BoxKeeping(
            settingsFile: setup.settingsFile, backups: setup.backups, factoryReset: setup.factoryReset,
            settings: setup.settings, ring: inbox.ring)
        (self.output, self.inbox, self.doors, self.clock) = (output, inbox, doors, clock)
        configuration = ConfigInForce(config: setup.config, document: setup.document, read: setup.reload)
        wallClock = Self.wallClock(believing: setup.config.clock)
        let (config, settings) = (setup.config, setup.settings)
        var lineup = config.channels
        if let saved = settings.channel { lineup.select(named: saved) }
        channels = ChannelChoice(lineup: lineup)
        let delay = min(settings.delay, config.defaults.maxDelay)
        var engine = EngineConfiguration()
        engine.initialBuffer = config.defaults.initialBuffer
        engine.maxDelay = config.defaults.maxDelay
        session = try ChannelSession(
            channel: lineup.selected, configuration: engine, delay: delay,
            knownStationPpm: settings.stationClocks?[lineup.selected.streamURL], client: client, clock: clock,
            unixTime: wallClock)
        standby = try StandbyChannels(
            lineup: lineup, playing: lineup.selected.name, configuration: engine,
            delay: delay, client: client, clock: clock, wallClock: wallClock, now: now)
        executor = CommandExecutor(engine: session.engine, settings: settings, maxVolume: config.defaults.maxVolume)
        desk = setup.cacheDirectory.map {
            ProgrammeDesk(
                cache: ClipCache(directory: $0, capBytes: Int64(config.defaults.clipCacheMB) * 1_000_000),
                cues: config.defaults.feedbackSounds ? setup.cues : nil)
        }
        facts = ApplianceFacts(doors: doors, wallClock: wallClock, venueClock: Self.venueClock(setup.config))
        answers = ConsoleAnswers(
            facts: facts,
            box: BoxSnapshot(
                engine: session.engine, executor: executor, channel: session.channel, config: config,
                document: setup.document, output: output.statistics, playoutThreadPriority: 0, recording: [],
                recentEvents: [], updateGate: UpdateRestartGate(), dailyUpdates: setup.dailyUpdates),
            started: now, consoleConfigPath: setup.consoleConfigPath, dailyUpdatesPath: setup.dailyUpdatesPath,
            boardChoices: BoardCatalog.choices())
        health = ServiceHealth(systemd: systemd, start: now)
        volume = (settings.volume, false)
        output.setVolume(settings.volume, muted: false)
        desk?.channelStarted(session.channel, adsEnabled: settings.adsEnabled, switched: false)
        desk?.start()
        log.channelStarted(session.channel, delay: delay, held: nil, heardAt: now, switched: false)
        journalDirectory = setup.journalDirectory
        for line in session.start(now: now, journal: journal(for: session.channel, delay: delay)) {
            log.report(line, level: .notice, at: now)
        }
        // A box set up from a phone: while its page waits for the first password, the
        // boot's first start says where that page is (not each restart: an upgrade or a
        // crash must not talk over the programme again).
        if let reset = setup.reset {
            logger.notice(
                "this box was reset to its factory settings\(reset.forgetWiFi ? "; its Wi-Fi networks are forgotten" : "")"
            )
            if reset.forgetWiFi { doors.wifi?.forgetNetworks() }
            sayWhereTheBoxIs(byHand: false, reset: true)
        } else if config.web != nil, let access = inbox.web, access.setupLeft(now: SystemClock.monotonicNow()) > .zero,
            firstStartOfTheBoot()
        {
            sayWhereTheBoxIs(byHand: false)
        }
    }

    /// Whether no start of this boot came before: a marker in the runtime directory
    /// (tmpfs, emptied at boot, kept across restarts), made now. False where the box keeps
    /// no runtime directory (`play`, a box run by hand).
    private func firstStartOfTheBoot() -> Bool {
        guard let journalDirectory else { return false }
        let marker = URL(fileURLWithPath: journalDirectory).deletingLastPathComponent()
            .appendingPathComponent("address-said").path
        guard !FileManager.default.fileExists(atPath: marker) else { return false }
        return FileManager.default.createFile(atPath: marker, contents: nil)
    }

    /// The delay journal of `channel`, the one the box journals from now on (a restart
    /// resumes the channel that was playing); nil where the box keeps none.
    private func journal(for channel: Channel, delay: TimeAmount) -> DelayJournal? {
        guard let directory = journalDirectory, let boot = DelayJournal.currentBootID() else { return nil }
        let journal = DelayJournal(
            directory: directory, url: channel.streamURL, bootID: boot,
            clockZero: SystemClock.monotonicNanoseconds() - clock.now().nanoseconds)
        journal.keep(milliseconds: delay.milliseconds)
        return journal
    }

    /// SIGHUP: the config files are read again (on the saver's thread), and taken at the
    /// wake-up after.
    func requestReload() {
        health.notify("RELOADING=1")
        keeping.files.reread(configuration.read)
    }

    /// Files being written or read for the playout whose outcome it has not taken yet.
    var fileErrandsUnderWay: Int { keeping.files.underWay }

    /// The next channel, as the panel's button asks for it: played from the next wake-up.
    func chooseNextChannel() { _ = channels.next() }

    /// The channel called `name`, played from the next wake-up; false when there is none.
    func chooseChannel(named name: String) -> Bool { channels.select(named: name) != nil }

    /// What the playing channel's engine says at `now`.
    func status(at now: Instant) -> EngineStatus { session.engine.status(at: now) }

    /// What the box is doing at `now`, as the listener set it.
    func state(at now: Instant) -> RunningState {
        RunningState(
            channel: session.channel.name, delay: session.engine.status(at: now).delay,
            volume: executor.settings.volume,
            muted: executor.muted, paused: session.engine.state == .paused, adsEnabled: executor.settings.adsEnabled,
            presets: executor.settings.presets, config: configuration.config)
    }

    /// One wake-up: takes what arrived (stream, doors, config), switches channel if asked,
    /// and tops up the output. What the doors changed is logged once, whichever door it
    /// came through.
    func step(now: Instant) throws {
        takeTheStream(now: now)
        let commands = doors.drain(), requests = inbox.drain(), filed = keeping.files.take()
        // Most wake-ups bring no request: what the listener set is compared only when one came.
        let before = commands.isEmpty && requests.isEmpty && filed.isEmpty ? nil : state(at: now)
        carryOut(commands, now: now)
        pollTheProgramme(now: now)
        try takeEffects(answer(requests, now: now), filed: filed, now: now)
        if let before { tellWhatChanged(since: before, now: now) }
        followTheVolume()
        alignWithTheRoom(now: now)
        rememberTheStationsClock(now: now)
        tellOfTheWiFi()
        render(session.engine, now: now)
        keepWatch(now: now)
    }

    /// What the stream clients posted, into their engines (the playing channel's journalled).
    private func takeTheStream(now: Instant) {
        session.journal?.keep(milliseconds: AudioFormat.milliseconds(frames: session.engine.delayInFrames))
        for line in session.applyClientMessages(now: now) { log.report(line, level: .info, at: now) }
        for (channel, change) in standby.poll(now: now) {
            logger.info("recording '\(channel)': \(NotificationLog.text(change))")
        }
    }

    /// The controls' commands, each answered by its feedback sound.
    private func carryOut(_ commands: [TimedCommand], now: Instant) {
        // The controls stamp their commands on CLOCK_MONOTONIC (the kernel's edge and key
        // timestamps); the output measures on this clock.
        let monotonicToClock = commands.isEmpty ? 0 : now.nanoseconds - SystemClock.monotonicNanoseconds()
        for timed in commands {
            let command = timed.command
            let outcome = apply(command, now: now)
            desk?.feedback(
                for: command, outcome: outcome, touchedAt: timed.time.nanoseconds + monotonicToClock, now: now)
            if outcome != .done { logger.info("\(command): \(ConsoleAnswers.describe(outcome))") }
        }
    }

    /// The programme mix's clips and read-outs, and whether ads play.
    private func pollTheProgramme(now: Instant) {
        guard let desk else { return }
        for line in desk.poll(engine: session.engine, now: now) { log.report(line, level: .notice, at: now) }
        desk.mix.adsEnabled = session.channel.adsEnabled && executor.settings.adsEnabled
    }

    /// The doors' requests answered; returns what the answers ask of the playout beyond
    /// their replies. A reply that waits for a file is given once it is written (`takeEffects`).
    private func answer(_ requests: [ConsoleInbox.Pending], now: Instant) -> [ConsoleEffect] {
        var effects: [ConsoleEffect] = []
        for pending in requests {
            var asked: [ConsoleEffect] = []
            let reply = answers.answer(pending.request, box: snapshot(), channels: &channels, effects: &asked, now: now)
            for effect in asked {
                switch effect {
                case .configEdited(let config, let document): configuration.edit(config, document: document)
                case .write(let write): keeping.files.write(write, for: pending, read: configuration.read)
                case .factoryReset(let forgetWiFi): keeping.beginFactoryReset(forgetWiFi: forgetWiFi, for: pending)
                case .backup(let job, let door):
                    keeping.beginBackup(job, door: door, current: executor.settings, for: pending)
                case .venue(let job):
                    guard let directory = facts.requestDirectory, let path = answers.consoleConfigPath else {
                        pending.reply(.refusal(.unavailable, "this box cannot set up a venue"))
                        break
                    }
                    keeping.files.venue(
                        job, requestDirectory: directory, configPath: path, brokerPort: facts.venueBrokerPort,
                        clock: clock, for: pending, read: configuration.read)
                case .tone: break
                }
            }
            if let reply { pending.reply(reply) }
            effects += asked
        }
        return effects
    }

    /// Carries out what the answers asked (the test tone), takes the files read again
    /// (`filed`) over and tells what the config's changes reach, then gives the replies that
    /// waited for a file, and switches channel when a door or a config change asked for
    /// another.
    private func takeEffects(_ effects: [ConsoleEffect], filed: [FileErrands.Outcome], now: Instant) throws {
        for case .tone(let on) in effects { testTone.isOn = on }
        var reading: ConfigInForce.Reading?
        var replies: [(ConsoleInbox.Pending, ConsoleReply)] = []
        for outcome in filed {
            switch outcome {
            case .reread(let read): reading = read
            case .written(let pending, let write, let error, let read):
                reading = read ?? reading
                if error == nil, case .dailyUpdates(let on) = write.purpose { dailyUpdates = on }
                replies.append((pending, answers.fileWritten(write, error: error)))
            case .reset(let pending, let forgetWiFi, let error):
                let reply = answers.factoryResetDone(forgetWiFi: forgetWiFi, error: error)
                if let pending { replies.append((pending, reply)) }
                keeping.finishFactoryReset(error: error, settings: executor.settings)
            case .backup(let pending, let job, let outcome):
                replies.append((pending, answers.backupDone(outcome)))
                keeping.finishBackup(job, outcome, settings: executor.settings)
            case .venue(let pending, let outcome, let read):
                reading = read ?? reading
                replies.append((pending, answers.venueDone(outcome, now: now)))
            }
        }
        if let reading {
            configuration.take(reading)
            health.notify("READY=1")
        }
        let redefined = takeConfigChanges()
        for (pending, reply) in replies { pending.reply(reply) }
        if let channel = channels.takeRequest() ?? redefined, channel != session.channel {
            try switchChannel(to: channel, now: now)
        }
    }

    /// Logs what the listener's settings became, once whichever door changed them, and
    /// tells the doors.
    private func tellWhatChanged(since before: RunningState, now: Instant) {
        let changes = state(at: now).changes(since: before)
        for change in changes { logger.info("\(change)") }
        if !changes.isEmpty { doors.stateChanged() }
    }

    /// The output's volume, when the executor's changed.
    private func followTheVolume() {
        guard (executor.settings.volume, executor.muted) != volume else { return }
        volume = (executor.settings.volume, executor.muted)
        output.setVolume(volume.level, muted: volume.muted)
    }

    /// What watches the box after a render: the update gate, the LED, the watchdog, and the
    /// settings saved when due.
    private func keepWatch(now: Instant) {
        let state = session.engine.state
        updateGate.observe(
            state: state,
            held: state == .reconnecting ? session.engine.status(at: now).bufferedAhead : .zero,
            now: now)
        doors.show(LEDPattern(state: state.rawValue))
        health.periodRendered(output: output, engine: session.engine, at: now)
        if executor.settingsDueForSave(at: now) { save() }
        if now >= nextReleaseRead {
            nextReleaseRead = now + ApplianceFacts.releaseInterval
            let machine = now >= nextMachineRead
            if machine { nextMachineRead = now + ApplianceFacts.machineInterval }
            let venueClock = Self.venueClock(configuration.config)
            keeping.saver.perform { [gathered = facts.gathered] in
                gathered.gather(machine: machine, venueClock: venueClock)
            }
        }
    }

    /// Plays at the clock's pace, `seconds` of output (0: until `goOn` says stop): sleeps
    /// until the output's ring needs topping up, lets `goOn` take what the root has for it
    /// (signals, requests), then steps. A sleep ended early (a door's request) steps at once
    /// and keeps the schedule. The output starts here; returns when it stopped.
    func runInRealTime(seconds: Double, sleeper: any Sleeper, goOn: (Instant) -> Bool) throws -> Instant {
        let interval = output.playoutIntervalNanoseconds
        output.frameLimit = seconds > 0 ? Int64(seconds * Double(AudioFormat.sampleRate)) : Int64.max
        output.start()
        if RealTimePriority.raiseCallingThread(to: Self.realTimePriority) {
            priority = Self.realTimePriority
        } else {
            logger.notice(
                "playout and audio at normal priority: real-time (SCHED_FIFO) not permitted — a busy board may be heard as gaps"
            )
        }
        var wake = clock.now()
        while output.renderedFrames < output.frameLimit {
            sleeper.sleep(until: wake)
            let now = clock.now()
            if now >= wake {
                wake = max(wake + TimeAmount(nanoseconds: interval), now + TimeAmount(nanoseconds: interval / 2))
            }
            guard goOn(now) else { break }
            try step(now: now)
        }
        return clock.now()
    }

    /// Fades out (one period, rendered now) and saves the settings; the output then plays
    /// out what it holds.
    func fadeOut(now: Instant) {
        health.notify("STOPPING=1")
        session.stop(now: now)
        render(session.engine, now: now, minimumPeriods: 1)
        save()
        keeping.saver.finish()
    }

    /// Ends the doors', the stream clients' and the clip loader's threads.
    func close() {
        doors.stop()
        session.client?.stop()
        standby.stop()
        desk?.stop()
        keeping.saver.finish()
    }

    /// A command from the panel or the remote: the channel is chosen as the console
    /// chooses it, the box says where it is, everything else is the executor's.
    func apply(_ command: Command, now: Instant) -> CommandExecutor.Outcome {
        switch command {
        case .nextChannel: chooseNextChannel()
        case .sayAddress: sayWhereTheBoxIs(byHand: true)
        case .factoryReset where wasReset && now - started < Self.resetQuiet:
            // Still held from the reset before (or stuck): one reset, not one at every start.
            logger.notice("a control held on from the factory reset just done: not reset again")
        case .factoryReset: keeping.beginFactoryReset(forgetWiFi: false, for: nil)
        default: return executor.execute(command, now: now)
        }
        return .done
    }

    /// Whom a box asks how near its wall clock is to the room's; nil outside a group.
    private static func venueClock(_ config: BoardConfig) -> VenueClockSource? {
        config.mqtt.flatMap { $0.group == nil ? nil : $0.venueClock }
    }

    /// A box of an MQTT group plays as one with the others in the room (`RoomSync`): the
    /// others' figures and the clock's word handed in, a move and its own figure carried out.
    private func alignWithTheRoom(now: Instant) {
        let look = room.look(
            member: doors.venueMember, figures: doors.takeVenueFigures(), clock: { facts.gathered.venueClock },
            unixNow: wallClock, engine: session.engine, now: now)
        if let whyNot = look.waits { logger.warning("the room's alignment waits: \(whyNot)") }
        if let clock = look.begins { logger.notice("the room's alignment begins: the clock is \(clock)") }
        if let moved = look.moved {
            let ms = { (value: Double) in String(printf: "%+.1f", value) }
            logger.info("playing as one with the room: \(ms(moved.byMs)) ms earlier (in all \(ms(moved.inAllMs)) ms)")
        }
        if let figure = look.figure { doors.venueFigure(figure) }
    }

    /// The wall clock as `source` says to believe it: always, or once synchronised.
    private static func wallClock(believing source: TimeSource) -> @Sendable () -> Double? {
        switch source {
        case .rtc: return { WallClock.unixTime() }
        case .network: return { WallClock.synchronisedUnixTime() }
        }
    }

    /// A change reaches everything that reads the config, whichever door it came through
    /// (`config set` on the console, SIGHUP, `config save`): the doors, and the lineup the
    /// channels are chosen from. Returns the playing channel's new definition when it was
    /// redefined (its URL changed, say): it plays from it at once.
    private func takeConfigChanges() -> Channel? {
        guard let before = configuration.takeChange() else { return nil }
        let config = configuration.config
        doors.configChanged(from: before, to: config)
        if executor.limitVolume(to: config.defaults.maxVolume, now: clock.now()) {
            logger.notice("volume lowered to \(config.defaults.maxVolume): defaults.max_volume")
        }
        guard before.channels.channels != config.channels.channels else { return nil }
        do {
            try standby.reconcile(
                with: config.channels, playing: session.channel.name,
                delay: session.engine.status(at: clock.now()).delay,
                now: clock.now())
        } catch {
            logger.error("the channels recorded in the background could not all start: \(error)")
        }
        guard let definition = channels.replace(with: config.channels, playing: session.channel.name) else {
            logger.notice("channel '\(session.channel.name)' is no longer configured: it plays until the next switch")
            return nil
        }
        return definition == session.channel ? nil : definition
    }

    /// Fades the playing channel out (rendered now) — it goes on recording if it has
    /// `record`, else it ends — and plays `channel` at the same delay: at once when it was
    /// recorded in the background, else once its own buffer has filled to it. Its first
    /// frame is heard after what the ring and the device still hold of the old one.
    private func switchChannel(to channel: Channel, now: Instant) throws {
        let delay = session.engine.status(at: now).delay
        room.forgetFigures()  // the room's figures were of the other channel's line
        // (A channel redefined under its own name is not kept: its old stream is done with.)
        if session.channel.record, session.channel.name != channel.name {
            standby.keep(session, now: now)
        } else {
            session.stop(now: now)
        }
        render(session.engine, now: now, minimumPeriods: 1)
        let heard = now.advanced(byFrames: Int64(output.feeder.outputDelayFrames(now: now)))
        if let kept = standby.take(channel.name) {
            kept.engine.setDelay(delay, now: now)
            log.channelStarted(
                channel, delay: delay, held: kept.engine.status(at: now).availableDelay,
                heardAt: heard,
                switched: true)
            session = kept
        } else {
            session = try ChannelSession(
                channel: channel, configuration: session.engine.configuration, delay: delay,
                knownStationPpm: executor.settings.stationClocks?[channel.streamURL], client: client, clock: clock,
                unixTime: wallClock)
            log.channelStarted(channel, delay: delay, held: nil, heardAt: heard, switched: true)
            _ = session.start(now: now, journal: journal(for: channel, delay: delay), resume: false)
        }
        desk?.channelStarted(session.channel, adsEnabled: executor.settings.adsEnabled, switched: true)
        executor.attach(session.engine, channel: session.channel.name, now: now)
    }

    /// Tops the output's ring up (at least `minimumPeriods`: a fade-out) with `engine`'s
    /// programme, the mix over it, the test tone instead of it when on; then tells what
    /// happened, the engine's notifications dated when their period is heard.
    private func render(_ engine: PlaybackEngine, now: Instant, minimumPeriods: Int = 0) {
        // What the device's delay cannot see (a Bluetooth speaker's buffer) is heard later still.
        let beyond = Int(configuration.config.audio.outputLatency.audioFrames)
        output.feed(now: now, minimumPeriods: minimumPeriods) { buffer, device in
            let delay = device + beyond
            let wasPlaying = engine.state == .playing
            let first = engine.renderedFrames
            engine.render(into: buffer, now: now, outputDelayFrames: delay)
            desk?.render(buffer, engine: engine, firstFrame: first)
            testTone.apply(to: buffer.baseAddress!, frames: buffer.count / AudioFormat.channelCount)
            if !wasPlaying, engine.state == .playing { health.programmeStarted(inFrames: delay) }
            report(engine.drainNotifications(), now: now, heardAt: now.advanced(byFrames: Int64(delay)))
        }
        for line in output.report() { log.report(line, level: .notice, at: now) }
        report(engine.drainNotifications(), now: now, heardAt: now)
    }

    /// The engine's notifications to the log and the console; stream events also to the
    /// console's `events` and the doors, with the wall-clock time they are heard.
    private func report(_ notifications: [EngineNotification], now: Instant, heardAt: Instant) {
        for notification in notifications {
            log.notification(notification, heardAt: heardAt)
            doors.show(NotificationLog.text(notification))
            switch notification {
            case .eventTookEffect:
                let heard = Date().addingTimeInterval(Double(heardAt.nanoseconds - now.nanoseconds) / 1e9)
                guard let event = heardEvents.heard(notification, at: heard) else { break }
                doors.eventHeard(json: JSONText.encode(answer: event))
                doors.stateChanged()
            case .stateChanged, .delayChanged: doors.stateChanged()
            default: break
            }
        }
    }

    /// The box as the answers see it now.
    private func snapshot() -> BoxSnapshot {
        BoxSnapshot(
            engine: session.engine, executor: executor, channel: session.channel, config: configuration.config,
            document: configuration.document, output: output.statistics, playoutThreadPriority: priority,
            recording: standby.names, recentEvents: heardEvents.recent, updateGate: updateGate,
            dailyUpdates: dailyUpdates)
    }

    private func save() { keeping.save(executor.settings) }

    /// Once a minute: the station's clock as followed, once known to a ppm, kept with the
    /// settings for the next start on it (`EngineConfiguration.knownStationPpm`).
    private func rememberTheStationsClock(now: Instant) {
        guard now >= nextStationClockLook else { return }
        nextStationClockLook = now.advanced(byMilliseconds: 60_000)
        let statistics = session.engine.statistics
        guard let ppm = statistics.stationClockPpm, let error = statistics.stationClockPpmError, error <= 1 else {
            return
        }
        executor.remember(stationPpm: ppm, of: session.channel.streamURL, now: now)
    }
}
