import DelayboxCommands
import DelayboxConfig
import DelayboxConsole
import DelayboxDoors
import DelayboxEngine
import DelayboxFFmpeg
import DelayboxLog
import DelayboxOutput
import DelayboxService

/// Answers console requests on the playout thread, from the engine, the executor and the
/// config: plain text for people, one JSON object with `--json`. Channels are chosen in
/// the playout's `ChannelChoice`, as the panel chooses them.
struct ConsoleAnswers {
    var engine: PlaybackEngine
    let executor: CommandExecutor
    var config: BoardConfig
    /// The same config as written, every value with its file and line (`config get`).
    var document: ConfigNode?
    var channel: Channel
    let started: Instant
    /// Recent stream events as the log printed them, newest last.
    var recentEvents: [String] = []
    /// Where `config save` writes (nil: nowhere), and the changes `config set` made since
    /// the last save.
    var consoleConfigPath: String?
    var unsaved: ConfigNode?
    /// What `config save` wants written, for the playout to hand to the disk's thread; the
    /// answer waits for it (`configWritten`).
    var configToWrite: (path: String, bytes: [UInt8])?
    /// `config set` changed `config` and `document`: the playout loop takes them over.
    var configChanged = false
    /// `config save` wrote the file: the playout loop reloads, as on SIGHUP.
    var reloadRequested = false
    /// The panel and the remote, for `gpio` and `remote`.
    var doors: Doors?
    /// Whether the test tone replaces the programme (`tone on`); the playout loop applies it.
    var toneOn = false
    /// The output's trouble counts, as of this wake-up (the playout sets them before it answers).
    var output = OutputStatistics()
    /// The playout thread's SCHED_FIFO priority, 0 at normal priority (`stats`).
    var playoutThreadPriority: Int32 = 0
    /// The channels recorded in the background (`record: true`; `status` lists them).
    var standby: StandbyChannels?
    /// The page's links for `status` (by name, and by number).
    let pageLinks = PageLinks()
    /// Whether a new release may restart the box now (`update_restart`).
    var updateGate = UpdateRestartGate()
    /// The wall clock as `board.clock` says to believe it (Unix time, s; nil: not yet).
    var wallClock: @Sendable () -> Double? = { nil }
    /// The shipped boards and the HAT's word, once `board list` or `board use` asked.
    var boardChoices: BoardChoices?

    mutating func answer(_ request: ConsoleRequest, channels: inout ChannelChoice, now: Instant) -> String {
        let status = engine.status(at: now)
        switch request.action {
        case .status:
            return format(statusAnswer(status, now: now), json: request.json)
        case .version:
            // FFmpeg's too: its security updates are Debian's, rebuilt into a release (docs/security.md).
            return format(
                VersionAnswer(version: DelayboxVersion.string, ffmpeg: FFmpegLibrary.version), json: request.json)
        case .update(let version):
            return askForUpdate(version: version, json: request.json)
        case .stagedUpdate:
            return
                "error: update --canary is a group's command over MQTT: publish it on delaybox/group/GROUP/command (docs/mqtt.md)"
        case .system:
            return format(systemAnswer(status), json: request.json)
        case .command(.nextChannel):
            return format(ChannelAnswer(result: "ok", channel: channels.next().name), json: request.json)
        case .selectChannel(let name):
            guard let match = channels.select(named: name) else {
                return
                    "error: no channel named '\(name)'; the channels: \(channels.lineup.channels.map(\.name).joined(separator: ", "))"
            }
            return format(ChannelAnswer(result: "ok", channel: match.name), json: request.json)
        case .command(let command):
            let outcome = executor.execute(command, now: now)
            let after = engine.status(at: now)
            let answer = CommandAnswer(
                result: Self.describe(outcome), delayMs: after.delayMs, volume: executor.settings.volume,
                state: after.state.rawValue, buildingDelayMs: after.delayToBuildMs)
            return format(answer, json: request.json)
        case .showDelay:
            let answer = DelayAnswer(
                delayMs: status.delayMs, availableDelayMs: status.availableDelayMs,
                minimumDelayMs: status.minimumDelayMs)
            return format(answer, json: request.json)
        case .showVolume:
            return format(VolumeAnswer(volume: executor.settings.volume, muted: executor.muted), json: request.json)
        case .listChannels:
            return channelList(json: request.json)
        case .stats:
            return format(statsAnswer(status), json: request.json)
        case .events:
            return request.json
                ? JSONText.encode(answer: ListAnswer(events: recentEvents))
                : (recentEvents.isEmpty ? "no events yet" : recentEvents.joined(separator: "\n"))
        case .board:
            return format(boardAnswer(), json: request.json)
        case .toGroup(let line):
            guard let doors else { return "error: this box has no MQTT door open: nothing was sent" }
            if let problem = doors.sayToGroup(line) { return "error: " + problem }
            return format(
                ResultAnswer(group: "\(line): sent to the group \(config.mqtt?.group ?? "")"), json: request.json)
        case .groupMembers:
            guard let group = config.mqtt?.group, let members = doors?.groupMembers() else {
                return "error: " + Doors.inNoGroup
            }
            let answer = GroupAnswer(
                group: group,
                boxes: members.map {
                    .init(
                        box: $0.member.box, state: $0.member.state, channel: $0.member.channel,
                        delayMs: $0.member.delayMs, heardSAgo: $0.heardSecondsAgo)
                })
            if request.json { return format(answer, json: true) }
            let lines = answer.boxes.map {
                let delay = JSONText.trimmed(String(Double($0.delayMs) / 1000))
                return "\($0.box)  \($0.state)  \(delay) s  \($0.channel)  (heard \($0.heardSAgo) s ago)"
            }
            return (["group: \(group)"] + (lines.isEmpty ? ["no other box heard yet"] : lines)).joined(separator: "\n")
        case .boardList:
            return boardList(json: request.json)
        case .chooseBoard(let name):
            return chooseBoard(name, json: request.json)
        case .showAds:
            return format(SettingAnswer(ads: executor.settings.adsEnabled ? "on" : "off"), json: request.json)
        case .logLevel(let level):
            if let level, let parsed = Logger.Level(rawValue: level) { LogOutput.level = parsed }
            return format(SettingAnswer(logLevel: LogOutput.level.rawValue), json: request.json)
        case .logHour:
            let lines = JournalLog.lastHour()
            return request.json ? JSONText.encode(answer: ListAnswer(lines: lines)) : lines.joined(separator: "\n")
        case .logTail(let count):
            let lines = Array(JournalLog.recent.withLock { $0 }.suffix(count))
            return request.json ? JSONText.encode(answer: ListAnswer(lines: lines)) : lines.joined(separator: "\n")
        case .configShow:
            return format(configShowAnswer(), json: request.json)
        case .web, .webPassword, .webReset:
            // The doors that take console lines answer these themselves (ConsoleInbox).
            return "error: the web password is set at the console or with delayboxctl"
        case .tone(let on):
            toneOn = on
            return format(
                ResultAnswer(tone: on ? "on: 1 kHz at -18 dBFS instead of the programme" : "off"), json: request.json)
        case .configGet(let key):
            return configValue(key, json: request.json)
        case .gpio:
            return panelAnswer(json: request.json)
        case .remote:
            return remoteAnswer(json: request.json)
        case .configSet(let key, let value):
            return setConfig(key, to: value, json: request.json)
        case .addChannel(let name, let url):
            return addChannel(name, url: url, json: request.json)
        case .removeChannel(let name):
            return removeChannel(name, json: request.json)
        case .configSave:
            return saveConfig(json: request.json)
        case .help(let topic):
            // ConsoleInbox answers help without the playout thread; the same text here.
            switch ConsoleLanguage.help(topic) {
            case .success(let text): return text
            case .failure(let error): return "error: \(error)"
            }
        }
    }

    static func describe(_ outcome: CommandExecutor.Outcome) -> String {
        switch outcome {
        case .done: "ok"
        case .limitReached: "limit reached"
        case .reaching(let delay, let wait):
            String(printf: "reaching %.1f s in %.1f s", Double(delay) / 1_000, Double(wait) / 1_000)
        case .refused(let why): "refused: \(why)"
        }
    }

    /// A Codable answer as lines or JSON (`JSONText.console`).
    func format(_ answer: some Encodable, json: Bool) -> String { JSONText.console(answer, json: json) }
}
