import DelayboxCommands
import DelayboxConfig
import DelayboxConsole
import DelayboxEngine
import DelayboxJSON
import DelayboxLog
import DelayboxMQTT
import DelayboxNetwork
import DelayboxUnits

/// Answers console requests on the playout thread: what each request means, from the box
/// as the playout hands it over at that wake-up (`BoxSnapshot`) and what the root knows of
/// the machine and the doors (`BoxFacts`) — a `ConsoleReply` (a Codable answer, or a
/// refusal of a kind) that each door renders its own way. Channels are chosen in the
/// playout's `ChannelChoice`, as the panel chooses them. Pure: it keeps only its own
/// state (the console's unsaved changes) and says what the playout must do
/// (`ConsoleEffect`).
public struct ConsoleAnswers {
    let facts: any BoxFacts
    /// The box at the wake-up being answered (`answer` takes it; an edit by `config set` is
    /// made here and handed back as `ConsoleEffect.configEdited`).
    var box: BoxSnapshot
    let started: Instant
    /// Where `config save` writes (nil: nowhere), and the changes `config set` made since
    /// the last save.
    public let consoleConfigPath: String?
    var unsaved: ConfigNode?
    /// Where `update daily on|off` is kept for the package's updater (nil: nowhere).
    let dailyUpdatesPath: String?
    /// The shipped boards and the HAT's word (`board list`, `board use`), read before playout
    /// began: parsing ten YAML files on the SCHED_FIFO playout thread could outlast the
    /// output's ring on a slow board (the files change only with a release, which restarts
    /// the box).
    let boardChoices: BoardChoices
    /// On a hub: the keys its join codes are handed out by (`venue add`, `venue claim`).
    var venueKeys = VenueJoinKeys()

    public init(
        facts: any BoxFacts, box: BoxSnapshot, started: Instant, consoleConfigPath: String?,
        dailyUpdatesPath: String? = nil, boardChoices: BoardChoices
    ) {
        (self.facts, self.box, self.started) = (facts, box, started)
        (self.consoleConfigPath, self.dailyUpdatesPath, self.boardChoices) = (
            consoleConfigPath, dailyUpdatesPath, boardChoices
        )
    }

    var engine: PlaybackEngine { box.engine }
    var executor: CommandExecutor { box.executor }
    var config: BoardConfig { box.config }
    var document: ConfigNode? { box.document }
    var channel: Channel { box.channel }

    /// The reply to `request`, and in `effects` what the playout must do beyond it; nil when
    /// the reply waits for an effect (a file written: `fileWritten` gives it then).
    public mutating func answer(
        _ request: ConsoleRequest, box: BoxSnapshot, channels: inout ChannelChoice, effects: inout [ConsoleEffect],
        now: Instant
    ) -> ConsoleReply? {
        self.box = box
        let status = engine.status(at: now)
        switch request.action {
        case .status:
            return .answer(statusAnswer(status, now: now))
        case .report(let name):
            return report(name, status: status, now: now)
        case .update(let version, let later):
            return askForUpdate(version: version, later: later, effects: &effects)
        case .updateCheck:
            return lookForUpdate(effects: &effects)
        case .dailyUpdates(let on):
            return dailyUpdates(on, effects: &effects)
        case .stagedUpdate:
            return .refusal(
                .refused,
                "update --canary is a group's command over MQTT: publish it on delaybox/group/GROUP/command (docs/mqtt.md)"
            )
        case .command(.nextChannel):
            return .answer(ChannelAnswer(result: "ok", channel: channels.next().name))
        case .selectChannel(let name):
            guard let match = channels.select(named: name) else {
                let names = channels.lineup.channels.map(\.name).joined(separator: ", ")
                return .refusal(.refused, "no channel named '\(name)'; the channels: \(names)")
            }
            return .answer(ChannelAnswer(result: "ok", channel: match.name))
        case .command(let command):
            let outcome = executor.execute(command, now: now)
            let after = engine.status(at: now)
            let answer = CommandAnswer(
                result: Self.describe(outcome), delay: after.delay, volume: executor.settings.volume,
                state: after.state.rawValue, buildingDelayMs: after.delayToBuild?.milliseconds)
            if case .refused = outcome { return .refused(answer) }
            return .answer(answer)
        case .showDelay:
            return .answer(
                DelayAnswer(
                    delay: status.delay, availableDelay: status.availableDelay, minimumDelay: status.minimumDelay))
        case .showVolume:
            return .answer(VolumeAnswer(volume: executor.settings.volume, muted: executor.muted))
        case .listChannels:
            return channelList()
        case .stats:
            return .answer(statsAnswer(status))
        case .board:
            return .answer(boardAnswer())
        case .toGroup(let line):
            if let problem = facts.sayToGroup(line) { return .refusal(.unavailable, problem) }
            return .answer(ResultAnswer(group: "\(line): sent to the group \(config.mqtt?.group ?? "")"))
        case .groupMembers:
            guard let group = config.mqtt?.group, let members = facts.groupMembers() else {
                return .refusal(.unavailable, MQTTTopics.inNoGroup)
            }
            let answer = GroupAnswer(
                group: group,
                boxes: members.map {
                    .init(
                        box: $0.member.box, state: $0.member.state, channel: $0.member.channel,
                        delay: $0.member.delay, release: $0.member.release, heardSAgo: $0.heardSecondsAgo)
                })
            let lines = answer.boxes.map {
                let delay = JSONText.trimmed(String($0.delay.seconds))
                let release = $0.release.map { "  release \($0)" } ?? ""
                return "\($0.box)  \($0.state)  \(delay) s  \($0.channel)\(release)  (heard \($0.heardSAgo) s ago)"
            }
            return .answer(
                answer,
                text: (["group: \(group)"] + (lines.isEmpty ? ["no other box heard yet"] : lines)).joined(
                    separator: "\n"))
        case .boardList:
            return boardList(door: request.door)
        case .chooseBoard(let name):
            return chooseBoard(name, door: request.door, effects: &effects)
        case .wifi:
            return wifiAnswer(door: request.door)
        case .wifiHotspotPassword(let password):
            return changeHotspotPassword(password)
        case .wifiJoin(let ssid, let password):
            return joinWiFi(ssid, password: password)
        case .wifiHotspot(let open):
            return wifiHotspot(open: open)
        case .showAds:
            return .answer(SettingAnswer(ads: executor.settings.adsEnabled ? "on" : "off"))
        case .logLevel(let level):
            if let level, let parsed = Logger.Level(rawValue: level) { LogOutput.level = parsed }
            return .answer(SettingAnswer(logLevel: LogOutput.level.rawValue))
        case .logHour:
            let lines = facts.logLastHour()
            return .answer(ListAnswer(lines: lines), text: lines.joined(separator: "\n"))
        case .logTail(let count):
            let lines = facts.logRecent(count)
            return .answer(ListAnswer(lines: lines), text: lines.joined(separator: "\n"))
        case .configShow:
            return .answer(configShowAnswer())
        case .web, .webPassword, .webReset:
            // The doors that take console lines answer these themselves (ConsoleInbox).
            return .refusal(.refused, "the web password is set at the console or with delayboxctl")
        case .tone(let on):
            effects.append(.tone(on: on))
            return .answer(ResultAnswer(tone: on ? "on: 1 kHz at -18 dBFS instead of the programme" : "off"))
        case .configGet(let key):
            return configValue(key)
        case .configSet(let key, let value):
            return setConfig(key, to: value, effects: &effects)
        case .addChannel(let name, let url):
            return addChannel(name, url: url, door: request.door, effects: &effects)
        case .removeChannel(let name):
            return removeChannel(name, effects: &effects)
        case .configSave:
            return saveConfig(effects: &effects)
        case .factoryReset(let forgetWiFi):
            effects.append(.factoryReset(forgetWiFi: forgetWiFi))
            return nil
        case .backup(let job):
            effects.append(.backup(job, door: request.door))
            return nil
        case .venue:
            return .answer(venueAnswer)
        case .venueServe, .venueAdmit, .venueHubs, .venueJoin, .venueClaim, .venueHandOver, .venueLeave:
            return venue(request.action, effects: &effects, now: now)
        case .help(let topic):
            // ConsoleInbox answers help without the playout thread; the same here.
            return ConsoleLanguage.helpReply(topic)
        }
    }

    /// The reply to `factory reset` once its files are gone (`error`: why not).
    public func factoryResetDone(forgetWiFi: Bool, error: String?) -> ConsoleReply {
        if let error { return .refusal(.unavailable, "the box could not be reset: \(error)") }
        let wifi = forgetWiFi ? "the Wi-Fi networks it joined forgotten" : "its Wi-Fi kept"
        return .answer(
            ResultAnswer(
                reset:
                    "the settings, the saved config and the page's password are removed, \(wifi): the box restarts now "
                    + "and says so; choose the page's password again within 30 minutes"))
    }

    /// How a command went, in the console's words.
    public static func describe(_ outcome: CommandExecutor.Outcome) -> String {
        switch outcome {
        case .done: "ok"
        case .limitReached: "limit reached"
        case .reaching(let delay, let wait):
            String(printf: "reaching %.1f s in %.1f s", delay.seconds, wait.seconds)
        case .refused(let why): "refused: \(why)"
        }
    }
}
