import DelayboxConfig
import DelayboxConsole
import DelayboxControls
import DelayboxEngine
import DelayboxJSON
import DelayboxUnits

/// What the console reports: the answers built from the engine, the config and the doors.
extension ConsoleAnswers {
    /// The reports by name: the language's commands that take no argument and change
    /// nothing (`ConsoleLanguage.reports`; a test holds the two lists equal). A new one is
    /// its language entry, its row here, its test and its line in docs/console.md.
    public static let reports: [String: @Sendable (ConsoleAnswers, EngineStatus, Instant) -> ConsoleReply] = [
        // FFmpeg's too: its security updates are Debian's, rebuilt into a release (docs/security.md).
        "version": { answers, _, _ in .answer(answers.facts.versions) },
        "system": { answers, status, _ in .answer(answers.systemAnswer(status)) },
        "events": { answers, _, _ in
            let events = answers.box.recentEvents
            return .answer(
                ListAnswer(events: events), text: events.isEmpty ? "no events yet" : events.joined(separator: "\n"))
        },
        "gpio": { answers, _, _ in answers.panelAnswer() },
        "remote": { answers, _, _ in answers.remoteAnswer() },
        "uptime": { answers, _, now in
            let seconds = max(0, Int(now.seconds - answers.started.seconds))
            return .answer(
                UptimeAnswer(
                    uptime: String(printf: "%d h %02d min", seconds / 3_600, seconds / 60 % 60), uptimeS: seconds,
                    systemUptimeS: answers.facts.machine().systemUptimeS))
        },
    ]

    /// `uptime`: how long the box has run since its start (`uptime_s`, s; `uptime` for
    /// people) and the machine since its boot (`system_uptime_s`, s; nil where /proc says
    /// nothing). A restart shows here; a reboot in both.
    struct UptimeAnswer: Codable, Equatable {
        var uptime: String
        var uptimeS: Int
        var systemUptimeS: Int?

        enum CodingKeys: String, CodingKey {
            case uptime
            case uptimeS = "uptime_s"
            case systemUptimeS = "system_uptime_s"
        }
    }

    /// The report `name` as of `now`.
    func report(_ name: String, status: EngineStatus, now: Instant) -> ConsoleReply {
        guard let answer = Self.reports[name] else {
            return .refusal(.unavailable, "'\(name)' has no answer in this build")
        }
        return answer(self, status, now)
    }

    /// The answer to `status`.
    func statusAnswer(_ status: EngineStatus, now: Instant) -> StatusAnswer {
        let recording = box.recording
        let clock = config.mqtt?.group == nil ? nil : facts.venueClock
        return StatusAnswer(
            state: status.state.rawValue, streamProblem: status.streamProblem, channel: channel.name,
            delay: status.delay,
            heardDelayMs: (status.heardDelayMs * 10).rounded() / 10, availableDelay: status.availableDelay,
            volume: executor.settings.volume, muted: executor.muted, bufferMs: status.bufferedAhead.milliseconds,
            nowPlaying: status.programme.title ?? "", uptimeS: Int(now.seconds - started.seconds),
            recording: recording.isEmpty ? nil : recording.joined(separator: ", "),
            buildingDelayMs: status.delayToBuild?.milliseconds,
            page: config.web.map { facts.pageByName(port: $0.port) },
            pageByNumber: config.web.flatMap { facts.pageByNumber(port: $0.port, now: now) },
            release: facts.release, stationClockPpm: status.statistics.stationClockPpm.map(Self.tenths),
            updateRestart: box.updateGate.verdict(
                state: status.state, now: now, window: config.updateWindow, minuteOfDay: facts.localMinuteOfDay()),
            lastRollback: facts.lastRollback,
            dailyUpdates: facts.requestDirectory == nil ? nil : box.dailyUpdates ? "on" : "off",
            group: config.mqtt?.group, venueClock: clock?.summary,
            venueClockErrorMs: clock?.errorMs.map { ($0 * 100).rounded() / 100 })
    }

    /// A thread's scheduling as `stats` says it: `fifo 40`, or `normal`.
    public static func describe(priority: Int32) -> String { priority > 0 ? "fifo \(priority)" : "normal" }

    /// `value` to 0.1.
    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// The answer to `system`: the machine as the box sees it.
    func systemAnswer(_ status: EngineStatus) -> SystemAnswer {
        var answer = facts.machine()
        answer.reconnectsFailed = status.statistics.failedReconnects
        return answer
    }

    /// The answer to `stats`.
    func statsAnswer(_ status: EngineStatus) -> StatsAnswer {
        let statistics = status.statistics
        // A control's touch to its sound at the jack, over the latest (none before the first).
        let output = box.output
        let clicks = output.touchToSound.summary
        let process = facts.processFigures()
        return StatsAnswer(
            bufferMs: status.bufferedAhead.milliseconds,
            delayErrorMs: ((status.heardDelayMs - Double(status.delay.milliseconds)) * 10).rounded() / 10,
            underruns: statistics.underruns, reconnectsFailed: statistics.failedReconnects,
            splices: statistics.splices, lostMs: AudioFormat.milliseconds(frames: statistics.lostFrames),
            resyncs: statistics.resyncs, driftPpm: (statistics.driftPpm * 10).rounded() / 10,
            driftSlips: statistics.driftSlips, delayBufferBytes: status.delayBufferBytes, xruns: output.xruns,
            lateRenders: output.lateRenders, deviceLosses: output.deviceLosses,
            audioThread: Self.describe(priority: output.audioThreadPriority),
            playoutThread: Self.describe(priority: box.playoutThreadPriority),
            knobToClickCount: output.touchToSound.count,
            cpuS: (process.cpuSeconds * 100).rounded() / 100,
            rssMb: (Double(process.residentBytes) / 1e5).rounded() / 10, knobToClickMs: clicks?.p95,
            knobToClickP50Ms: clicks?.p50, knobToClickMaxMs: clicks?.max,
            stationClockPpm: statistics.stationClockPpm.map(Self.tenths),
            venueShiftMs: facts.venueMember == nil
                ? nil : Self.tenths(AudioFormat.exactMilliseconds(frames: statistics.venueShiftFrames)))
    }

    /// The answer to `board`: the board config's hardware.
    func boardAnswer() -> BoardAnswer {
        let encoder = config.gpio?.encoder
        return BoardAnswer(
            board: config.name, audioDevice: config.audio.device, mixer: config.audio.mixer ?? "software",
            buttons: config.gpio.map { $0.buttons.map { "\($0.name)=GPIO\($0.line)" }.joined(separator: " ") },
            encoder: encoder.map { "A=GPIO\($0.a) B=GPIO\($0.b)" + ($0.push.map { " push=GPIO\($0)" } ?? "") })
    }

    /// The answer to `config show`: the running values.
    func configShowAnswer() -> ConfigShowAnswer {
        return ConfigShowAnswer(
            board: config.name, hat: config.hat.rawValue, audioDevice: config.audio.device,
            periodMs: config.audio.period.milliseconds, periods: config.audio.periods,
            channels: config.channels.channels.map(\.name).joined(separator: ", "),
            initialBufferMs: config.defaults.initialBuffer.milliseconds,
            maxDelayMs: config.defaults.maxDelay.milliseconds,
            delayStepMs: config.defaults.delayStep.milliseconds,
            console: config.console.map { "\($0.device) \($0.baud)" } ?? "none",
            mqtt: config.mqtt.map { $0.brokerURL + ($0.group.map { " group \($0)" } ?? "") } ?? "none")
    }

    /// The answer to `channels`: the lineup, the playing one marked.
    func channelList() -> ConsoleReply {
        let names = config.channels.channels.map {
            ($0.name == channel.name ? "* " : "  ") + $0.name + "  " + $0.streamURL
        }
        return .answer(
            ListAnswer(channels: config.channels.channels.map(\.name), selected: channel.name),
            text: names.joined(separator: "\n"))
    }

    /// The answer to `gpio`: every input line as the front panel reads it.
    func panelAnswer() -> ConsoleReply {
        guard let view = facts.panelView() else {
            return .refusal(
                .unavailable,
                config.gpio == nil
                    ? "this board has no buttons or encoder" : "the front panel is not running (see the log)")
        }
        return .answer(GPIOAnswer(view), text: view.text)
    }

    /// The answer to `remote`: the receiver and the latest keys (their times are the kernel's, on CLOCK_MONOTONIC).
    func remoteAnswer() -> ConsoleReply {
        guard let (view, now) = facts.remoteView() else {
            return .refusal(
                .unavailable,
                config.remote == nil
                    ? "this board has no remote (docs/controls.md: IR remote)"
                    : "the remote is not running (see the log)")
        }
        return .answer(view.answer(now: now))
    }
}
