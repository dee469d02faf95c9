import DelayboxCommands
import DelayboxConfig
import DelayboxConfigFile
import DelayboxConsole
import DelayboxControls
import DelayboxDoors
import DelayboxEngine
import DelayboxFFmpeg
import DelayboxLog
import DelayboxOutput
import DelayboxPlatform
import DelayboxService
import DelayboxState
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

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

    mutating func answer(_ request: ConsoleRequest, channels: inout ChannelChoice, now: Instant) -> String {
        let status = engine.status(at: now)
        switch request.action {
        case .status:
            let recording = standby?.names ?? []
            let answer = StatusAnswer(
                state: status.state.rawValue, channel: channel.name, delayMs: status.delayMs,
                heardDelayMs: (status.heardDelayMs * 10).rounded() / 10, availableDelayMs: status.availableDelayMs,
                volume: executor.settings.volume, muted: executor.muted, bufferMs: status.bufferedAheadMs,
                nowPlaying: status.programme.title ?? "", uptimeS: Int(now.seconds - started.seconds),
                recording: recording.isEmpty ? nil : recording.joined(separator: ", "),
                buildingDelayMs: status.delayToBuildMs,
                page: config.web.map { "http://\(HostName.current()).local\($0.port == 80 ? "" : ":\($0.port)")/" },
                release: ReleaseStatus.read())
            return format(answer, json: request.json)
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
            let machine = SystemFigures.read()
            let answer = SystemAnswer(
                hostname: HostName.current(), addresses: machine.addresses.joined(separator: ", "),
                wifiInterface: machine.wifi?.interface, wifiSignalDbm: machine.wifi?.signalDBm,
                wifiMissedBeacons: machine.wifi?.missedBeacons, cpuTemperatureC: machine.cpuTemperatureC,
                systemUptimeS: machine.uptimeS, reconnectsFailed: status.statistics.failedReconnects)
            return format(answer, json: request.json)
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
            let names = config.channels.channels.map {
                ($0.name == channel.name ? "* " : "  ") + $0.name + "  " + $0.streamURL
            }
            return request.json
                ? JSONText.encode(
                    answer: ListAnswer(channels: config.channels.channels.map(\.name), selected: channel.name))
                : names.joined(separator: "\n")
        case .stats:
            let statistics = status.statistics
            // A control's touch to its sound at the jack, over the latest (none before the first).
            let clicks = output.touchToSound.summary
            let answer = StatsAnswer(
                bufferMs: status.bufferedAheadMs,
                delayErrorMs: ((status.heardDelayMs - Double(status.delayMs)) * 10).rounded() / 10,
                underruns: statistics.underruns, reconnectsFailed: statistics.failedReconnects,
                splices: statistics.splices, lostMs: AudioFormat.milliseconds(frames: statistics.lostFrames),
                resyncs: statistics.resyncs, driftPpm: (statistics.driftPpm * 10).rounded() / 10,
                driftSlips: statistics.driftSlips, delayBufferBytes: status.delayBufferBytes, xruns: output.xruns,
                lateRenders: output.lateRenders, deviceLosses: output.deviceLosses,
                audioThread: RealTimePriority.description(output.audioThreadPriority),
                playoutThread: RealTimePriority.description(playoutThreadPriority),
                knobToClickCount: output.touchToSound.count,
                cpuS: (ProcessFigures.cpuSeconds() * 100).rounded() / 100,
                rssMb: (Double(ProcessFigures.residentBytes()) / 1e5).rounded() / 10, knobToClickMs: clicks?.p95,
                knobToClickP50Ms: clicks?.p50, knobToClickMaxMs: clicks?.max)
            return format(answer, json: request.json)
        case .events:
            return request.json
                ? JSONText.encode(answer: ListAnswer(events: recentEvents))
                : (recentEvents.isEmpty ? "no events yet" : recentEvents.joined(separator: "\n"))
        case .board:
            let encoder = config.gpio?.encoder
            let answer = BoardAnswer(
                board: config.name, audioDevice: config.audio.device, mixer: config.audio.mixer ?? "software",
                buttons: config.gpio.map { $0.buttons.map { "\($0.name)=GPIO\($0.line)" }.joined(separator: " ") },
                encoder: encoder.map { "A=GPIO\($0.a) B=GPIO\($0.b)" + ($0.push.map { " push=GPIO\($0)" } ?? "") })
            return format(answer, json: request.json)
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
            let answer = ConfigShowAnswer(
                board: config.name, hat: config.hat.rawValue, audioDevice: config.audio.device,
                periodMs: config.audio.periodMs, periods: config.audio.periods,
                channels: config.channels.channels.map(\.name).joined(separator: ", "),
                initialBufferMs: config.defaults.initialBufferMs, maxDelayMs: config.defaults.maxDelayMs,
                delayStepMs: config.defaults.delayStepMs,
                console: config.console.map { "\($0.device) \($0.baud)" } ?? "none",
                mqtt: config.mqtt.map { $0.brokerURL + ($0.group.map { " group \($0)" } ?? "") } ?? "none")
            return format(answer, json: request.json)
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
            guard let view = doors?.panel?.inputView() else {
                return config.gpio == nil
                    ? "error: this board has no buttons or encoder"
                    : "error: the front panel is not running (see the log)"
            }
            guard request.json else { return view.text }
            return JSONText.encode(answer: GPIOAnswer(view))
        case .remote:
            guard let view = doors?.remote?.view() else {
                return config.remote == nil
                    ? "error: this board has no remote (docs/controls.md: IR remote)"
                    : "error: the remote is not running (see the log)"
            }
            return format(view.answer(now: SystemClock.monotonicNanoseconds()), json: request.json)
        case .configSet(let key, let value):
            return setConfig(key, to: value, json: request.json)
        case .addChannel(let name, let url):
            return changeChannels("channel add", json: request.json, answer: ResultAnswer(channel: name, url: url)) {
                items, origin in
                // A door (the page, MQTT) may add a station, not open a file or another
                // protocol: a local file is named in the board config, by its owner.
                let scheme = url.prefix { $0 != ":" }.lowercased()
                guard ["http", "https"].contains(scheme), url.utf8.count <= 2_000 else {
                    return
                        "a channel is added from a station's http:// or https:// link (a local file goes in the board config)"
                }
                items.append(
                    .mapping(
                        [
                            (ConfigNode.Key("name", at: origin), .scalar(name, origin)),
                            (ConfigNode.Key("url", at: origin), .scalar(url, origin)),
                        ], origin))
                return nil
            }
        case .removeChannel(let name):
            let names = config.channels.channels.map(\.name).joined(separator: ", ")
            return changeChannels("channel remove", json: request.json, answer: ResultAnswer(channel: name)) {
                items, _ in
                guard
                    let index = items.firstIndex(where: {
                        if case .scalar(name, _)? = $0["name"] { true } else { false }
                    })
                else {
                    return "no channel named '\(name)'; the channels: \(names)"
                }
                items.remove(at: index)
                return nil
            }
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

    /// `update [VERSION]`: leaves the request the package's `delaybox-update.path` waits
    /// for in the service's runtime directory (holding the version asked for, if any);
    /// root's `delaybox-update.service` then updates Delaybox from the box's apt sources,
    /// and the healer checks what it installed. The box itself has no privilege to do any
    /// of it.
    private func askForUpdate(version: String?, json: Bool) -> String {
        guard let directory = getenv("RUNTIME_DIRECTORY").map({ String(cString: $0) }), !directory.isEmpty else {
            return "error: this box was not installed from the package: it has no updater (docs/deploy.md)"
        }
        // Written whole, then renamed: the path unit starts the updater as soon as the
        // request exists, and it must not read half a version.
        let path = directory + "/update-request"
        let file = open(path + ".new", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o640)
        guard file >= 0 else { return "error: cannot ask for an update: \(path): \(ErrorText.system(errno))" }
        let wanted = Array((version.map { $0 + "\n" } ?? "").utf8)
        let written = wanted.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file)
        guard written == wanted.count, rename(path + ".new", path) == 0 else {
            return "error: cannot ask for an update: \(path): \(ErrorText.system(errno))"
        }
        let what = version.map { "asked for \($0)" } ?? "asked"
        return format(ResultAnswer(update: "\(what): `status` says how it goes (release)"), json: json)
    }

    /// `config get KEY`: the value in force and where it was written (the board file, a
    /// base it extends, or the site file); for an unknown key, the keys there are.
    private func configValue(_ key: String, json: Bool) -> String {
        guard let document else {
            return "error: the config file cannot be read again; `config show` has the running values"
        }
        let found = document.lookup(key)
        guard let node = found.node else {
            let place = found.deepest.path.isEmpty ? "the config" : "'\(found.deepest.path)'"
            return "error: no '\(found.missing ?? key)' in \(place); there: \(found.deepest.node.summary)"
        }
        // A secret is said to be set, not shown: the console's answers go to the control
        // socket's and MQTT's clients too.
        let value = key.split(separator: ".").last == "password" ? "(set; not shown)" : node.summary
        return format(
            ConfigValueAnswer(key: key, value: value, from: "\(node.location.file):\(node.location.line)"), json: json)
    }

    /// `config set KEY VALUE`: the running config with that value, if the result is valid
    /// and the key is one the config knows; takes effect as a reload does.
    private mutating func setConfig(_ key: String, to value: String, json: Bool) -> String {
        guard let document else { return "error: the config file cannot be read again; nothing can be set" }
        let origin = SourceLocation(file: "config set", line: 1, column: 1)
        guard let override = document.override(setting: key, to: .scalar(value, origin)) else {
            return "error: '\(key)' cannot be set: it runs into a value or past the end of a list"
        }
        if let problem = apply(override, origin: origin) { return "error: " + problem }
        return format(ResultAnswer(key: key, value: value, saved: ResultAnswer.unsaved), json: json)
    }

    /// `channel add` and `channel remove`: the channel list changed by `change` (which may
    /// refuse, in words), checked as the file would be and live at once, like `config set`.
    private mutating func changeChannels(
        _ command: String, json: Bool, answer: ResultAnswer,
        _ change: (inout [ConfigNode], SourceLocation) -> String?
    ) -> String {
        guard let document else { return "error: the config file cannot be read again; nothing can be changed" }
        let origin = SourceLocation(file: command, line: 1, column: 1)
        guard case .sequence(var items, _)? = document.lookup("channels").node else {
            return "error: the config has no channel list"
        }
        if let refusal = change(&items, origin) { return "error: " + refusal }
        let override = ConfigNode.mapping([(ConfigNode.Key("channels", at: origin), .sequence(items, origin))], origin)
        if let problem = apply(override, origin: origin) { return "error: " + problem }
        var answer = answer
        answer.saved = ResultAnswer.unsaved
        return format(answer, json: json)
    }

    /// Lays `override` over the running config when the result is valid (nil), as a reload
    /// does, and remembers it for `config save`; else what is wrong with it.
    private mutating func apply(_ override: ConfigNode, origin: SourceLocation) -> String? {
        guard let document else { return "the config file cannot be read again" }
        let fresh = document.merged(with: override)
        let read = BoardConfig.read(fresh)
        let problems = read.diagnostics.filter { $0.severity == .error || $0.location.file == origin.file }
        guard let freshConfig = read.config, problems.isEmpty else {
            return problems.map(\.message).joined(separator: "; ")
        }
        unsaved = (unsaved ?? .mapping([], origin)).merged(with: override)
        self.document = fresh
        config = freshConfig
        configChanged = true
        return nil
    }

    /// `config save`: what `config set` changed, added to the saved file beside the state
    /// file, which is laid over the site file at every start. The file is written off the
    /// playout thread (a slow disk's fsync cost the output 95 periods: SlowDiskTests):
    /// this leaves it in `configToWrite`, and `configWritten` answers once it is.
    private mutating func saveConfig(json: Bool) -> String {
        guard let path = consoleConfigPath else {
            return "error: no place to save to (the appliance has no state directory)"
        }
        guard let unsaved else { return "error: nothing to save: `config set KEY VALUE` first" }
        let saved = FileManager.default.fileExists(atPath: path) ? ConfigFile.document(path).document : nil
        let text =
            "# Written by the console's `config save`; laid over the site file at start. Delete it to go back.\n"
            + ConfigFile.yaml(saved.map { $0.merged(with: unsaved) } ?? unsaved)
        configToWrite = (path, Array(text.utf8))
        return ""
    }

    /// The answer to `config save` once its file is written (`error`: why not): saved, the
    /// files are read again; not, the changes stay to be saved.
    mutating func configWritten(to path: String, error: String?, json: Bool) -> String {
        if let error { return "error: cannot write \(path): \(error)" }
        unsaved = nil
        reloadRequested = true
        return format(ResultAnswer(saved: path), json: json)
    }

    /// Writes `bytes` to `path` durably (fsync, rename, fsync of the folder: Foundation's
    /// atomic write does not fsync on Linux, and a power cut could leave an empty file);
    /// nil when written, else why not.
    static func writeDurably(_ bytes: [UInt8], to path: String) -> String? {
        do {
            try DurableFile.write(bytes, to: path, mode: 0o644)
            return nil
        } catch {
            return ErrorText.of(error)
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
    private func format(_ answer: some Encodable, json: Bool) -> String { JSONText.console(answer, json: json) }
}
