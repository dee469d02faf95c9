import DelayboxAnswers
import DelayboxConfig
import DelayboxConsole
import DelayboxControls
import DelayboxDoors
import DelayboxEngine
import DelayboxFFmpeg
import DelayboxJSON
import DelayboxPlatform

/// What the console reports: the answers built from the engine, the config and the doors.
extension ConsoleAnswers {
    /// The reports by name: the language's commands that take no argument and change
    /// nothing (`ConsoleLanguage.reports`; a test holds the two lists equal). A new one is
    /// its language entry, its row here, its test and its line in docs/console.md.
    static let reports: [String: @Sendable (ConsoleAnswers, EngineStatus, Instant) -> ConsoleReply] = [
        // FFmpeg's too: its security updates are Debian's, rebuilt into a release (docs/security.md).
        "version": { _, _, _ in .answer(VersionAnswer(version: DelayboxVersion.string, ffmpeg: FFmpegLibrary.version))
        },
        "system": { answers, status, _ in .answer(answers.systemAnswer(status)) },
        "events": { answers, _, _ in
            let events = answers.recentEvents
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
                    systemUptimeS: SystemFigures.read().uptimeS))
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
        let recording = standby?.names ?? []
        return StatusAnswer(
            state: status.state.rawValue, streamProblem: status.streamProblem, channel: channel.name,
            delayMs: status.delayMs,
            heardDelayMs: (status.heardDelayMs * 10).rounded() / 10, availableDelayMs: status.availableDelayMs,
            volume: executor.settings.volume, muted: executor.muted, bufferMs: status.bufferedAheadMs,
            nowPlaying: status.programme.title ?? "", uptimeS: Int(now.seconds - started.seconds),
            recording: recording.isEmpty ? nil : recording.joined(separator: ", "),
            buildingDelayMs: status.delayToBuildMs,
            page: config.web.map { PageLinks.byName(port: $0.port) },
            pageByNumber: config.web.flatMap { pageLinks.byNumber(port: $0.port, now: now) },
            release: releaseLine.current, stationClockPpm: status.statistics.stationClockPpm.map(Self.tenths),
            updateRestart: updateGate.verdict(
                state: status.state, now: now, window: config.updateWindow,
                minuteOfDay: wallClock().map(WallClock.localMinuteOfDay)),
            group: config.mqtt?.group)
    }

    /// `value` to 0.1.
    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    /// The answer to `system`: the machine as the box sees it.
    func systemAnswer(_ status: EngineStatus) -> SystemAnswer {
        let machine = SystemFigures.read()
        return SystemAnswer(
            hostname: HostName.current(), addresses: machine.addresses.joined(separator: ", "),
            wifiInterface: machine.wifi?.interface, wifiSignalDbm: machine.wifi?.signalDBm,
            wifiMissedBeacons: machine.wifi?.missedBeacons, cpuTemperatureC: machine.cpuTemperatureC,
            systemUptimeS: machine.uptimeS, reconnectsFailed: status.statistics.failedReconnects)
    }

    /// The answer to `stats`.
    func statsAnswer(_ status: EngineStatus) -> StatsAnswer {
        let statistics = status.statistics
        // A control's touch to its sound at the jack, over the latest (none before the first).
        let clicks = output.touchToSound.summary
        return StatsAnswer(
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
            knobToClickP50Ms: clicks?.p50, knobToClickMaxMs: clicks?.max,
            stationClockPpm: statistics.stationClockPpm.map(Self.tenths),
            venueShiftMs: doors?.venueMember == nil
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
            periodMs: config.audio.periodMs, periods: config.audio.periods,
            channels: config.channels.channels.map(\.name).joined(separator: ", "),
            initialBufferMs: config.defaults.initialBufferMs, maxDelayMs: config.defaults.maxDelayMs,
            delayStepMs: config.defaults.delayStepMs,
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
        guard let view = doors?.panel?.inputView() else {
            return .refusal(
                .unavailable,
                config.gpio == nil
                    ? "this board has no buttons or encoder" : "the front panel is not running (see the log)")
        }
        return .answer(GPIOAnswer(view), text: view.text)
    }

    /// The answer to `remote`: the receiver and the latest keys (their times are the kernel's, on CLOCK_MONOTONIC).
    func remoteAnswer() -> ConsoleReply {
        guard let view = doors?.remote?.view() else {
            return .refusal(
                .unavailable,
                config.remote == nil
                    ? "this board has no remote (docs/controls.md: IR remote)"
                    : "the remote is not running (see the log)")
        }
        return .answer(view.answer(now: SystemClock.monotonicNow()))
    }
}
