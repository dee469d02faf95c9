import DelayboxEngine

/// Drives the real `PlaybackEngine` with a simulated network and DAC on a manual clock,
/// and measures at the simulated jack what a listener would hear.
///
/// Measurements come from the audio itself: the test codec's right channel tells which
/// stream frame is heard, so the delay error is `jack time − (stream time + network
/// latency) − set delay` on exact frames, and silence heard while playing is a gap unless
/// the server never delivered that audio (the network's ground truth).
public final class Simulation {
    public let scenario: SimulationScenario
    public let clock = ManualClock()
    public private(set) var engine: PlaybackEngine
    private var network: SimulatedNetwork
    private var dac: SimulatedDAC
    /// True time at which the box starts.
    private let start: Instant
    private let leadFrames: Int64
    private var buffer: [Float]

    /// Every output sample, when the scenario asks for it.
    public private(set) var output: [Float] = []
    /// Every notification the engine made, with the true time of the render that made it.
    public private(set) var notifications: [(time: Instant, notification: EngineNotification)] = []
    private var delayErrors: [Double] = []
    /// When each of `delayErrors` was heard (seconds since the start).
    private var delayErrorTimes: [Double] = []
    private var gapFrames: Int64 = 0
    private let lostPackets: [Range<Int64>]

    public init(_ scenario: SimulationScenario) throws {
        self.scenario = scenario
        var configuration = scenario.engine
        configuration.initialDelay = scenario.delay
        engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder() })
        start = .zero + scenario.sourceLead
        leadFrames = scenario.sourceLead.audioFrames
        let lead = scenario.sourceLead
        // The model's times are the box's, the network's the source's (which began `lead` earlier).
        var delivery = scenario.delivery
        delivery.pathChanges = delivery.pathChanges.map { .init(at: $0.at + lead, latency: $0.latency) }
        network = SimulatedNetwork(
            packetFrames: scenario.packetFrames, packetBytes: scenario.packetBytes,
            latency: scenario.latency, jitter: scenario.jitter,
            burst: scenario.delivery.hlsSegment.map { SimulatedNetwork.hlsStartSegments * $0 } ?? scenario.burst,
            connectAt: start,
            outages: scenario.outages.map { .init(at: $0.at + lead, length: $0.length) },
            events: scenario.events.map { ($0.at + lead, $0.event) },
            silentPackets: scenario.silentPackets, stationPpm: scenario.stationPpm,
            congestions: scenario.congestions.map {
                .init(at: $0.at + lead, length: $0.length, extra: $0.extra)
            },
            readBatching: scenario.readBatching,
            model: delivery, seed: scenario.seed)
        lostPackets = network.lostPackets()
        dac = SimulatedDAC(periodFrames: scenario.periodFrames, periods: scenario.periods, driftPpm: scenario.driftPpm)
        buffer = [Float](repeating: 0, count: scenario.periodFrames * AudioFormat.channelCount)
        clock.set(start)
    }

    /// Runs the whole scenario and reports.
    public func run() -> SimulationReport {
        if scenario.recordOutput {
            output.reserveCapacity(
                Int(scenario.duration.audioFrames) * AudioFormat.channelCount)
        }
        engine.start(now: start)
        var actions = controlActions()
        let end = start + scenario.duration
        var request: Int64 = 0
        while true {
            let renderTime = dac.requestTime(request, start: start)
            if renderTime >= end { break }
            while network.nextTime() <= renderTime {
                let (time, delivery) = network.next()
                clock.set(time)
                network.apply(delivery, at: time, to: engine)
            }
            while let action = actions.first, action.time <= renderTime {
                actions.removeFirst()
                clock.set(action.time)
                action.run(engine, action.time)
            }
            clock.set(renderTime)
            renderPeriod(at: renderTime)
            dac.countRequest()
            request += 1
        }
        return report(at: end)
    }

    private struct Action {
        var time: Instant
        var run: (PlaybackEngine, Instant) -> Void
    }

    private func controlActions() -> [Action] {
        var actions: [Action] = []
        for pause in scenario.pauses {
            actions.append(Action(time: start + pause.at) { $0.pause(now: $1) })
            actions.append(Action(time: start + pause.at + pause.length) { $0.resume(now: $1) })
        }
        for change in scenario.delayChanges {
            actions.append(
                Action(time: start + change.at) {
                    $0.setDelay(change.delay, now: $1)
                })
        }
        return actions.sorted { $0.time < $1.time }
    }

    private func renderPeriod(at time: Instant) {
        buffer.withUnsafeMutableBufferPointer { out in
            engine.render(into: out, now: time, outputDelayFrames: dac.queuedFrames)
        }
        for notification in engine.drainNotifications() { notifications.append((time, notification)) }
        if scenario.recordOutput { output.append(contentsOf: buffer) }
        guard engine.state == .playing || engine.state == .reconnecting else { return }
        let measured = time >= start + scenario.measureFrom
        // Stream frames per second of true time: the station's clock.
        let streamRate = Double(AudioFormat.sampleRate) * (1 + scenario.stationPpm / 1e6)
        let delaySeconds = Double(engine.delayInFrames) / Double(AudioFormat.sampleRate)
        let latencySeconds = scenario.latency.seconds
        buffer.withUnsafeBufferPointer { samples in
            for frame in 0..<scenario.periodFrames where samples[2 * frame] == 0 && samples[2 * frame + 1] == 0 {
                let heard = dac.jackTime(ofFrame: frame, requestedAt: time)
                let expected = Int64(((heard - latencySeconds - delaySeconds) * streamRate).rounded(.down))
                if !isLostOrSilent(streamFrame: expected) { gapFrames += 1 }
            }
            guard measured, let first = ToneCodec.code(right: samples[1]),
                let second = ToneCodec.code(right: samples[3]),
                (second - first) & (ToneCodec.codePeriod - 1) == 1
            else { return }
            let heard = dac.jackTime(ofFrame: 0, requestedAt: time)
            let expected = (heard - latencySeconds - delaySeconds) * streamRate
            let frame = unwrap(code: first, near: expected)
            let heardDelay = heard - (Double(frame) / streamRate + latencySeconds)
            delayErrors.append((heardDelay - delaySeconds) * 1000)
            delayErrorTimes.append(time.seconds - start.seconds)
        }
    }

    /// The stream frame with code `code` nearest to `expected`.
    private func unwrap(code: Int64, near expected: Double) -> Int64 {
        let period = ToneCodec.codePeriod
        let base = Int64(expected.rounded()) - period / 2
        return base + ((code - base) % period + period) % period
    }

    private func isLostOrSilent(streamFrame: Int64) -> Bool {
        let packet = streamFrame / Int64(scenario.packetFrames)
        return lostPackets.contains { $0.contains(packet) } || network.isSilent(packet)
    }

    private func report(at end: Instant) -> SimulationReport {
        let status = engine.status(at: end)
        let sorted = delayErrors.map(abs).sorted()
        func p99(_ sorted: [Double]) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        }
        let signed = delayErrors.sorted()
        let median = signed.isEmpty ? 0 : signed[signed.count / 2]
        let wander = delayErrors.map { abs($0 - median) }.sorted()
        let lostExpected = lostPackets.reduce(0) { $0 + $1.count } * scenario.packetFrames
        return SimulationReport(
            durationS: scenario.duration.seconds, delayS: scenario.delay.seconds,
            driftPpm: scenario.driftPpm,
            outages: scenario.outages.map { "\($0.at.seconds):\($0.length.seconds)" },
            delayErrorMsMax: sorted.last ?? 0, delayErrorMsP99: p99(sorted),
            delayErrorMsMean: sorted.isEmpty ? 0 : delayErrors.reduce(0, +) / Double(sorted.count),
            delayErrorMsMedian: median, delayWanderMsP99: p99(wander), delayWanderMsMax: wander.last ?? 0,
            delayChecks: sorted.count,
            underruns: status.statistics.underruns,
            lostMs: AudioFormat.exactMilliseconds(frames: status.statistics.lostFrames),
            lostMsExpected: AudioFormat.exactMilliseconds(frames: Int64(lostExpected)),
            gapsMs: AudioFormat.exactMilliseconds(frames: gapFrames),
            splices: status.statistics.splices, lagSteps: status.statistics.lagSteps,
            resyncs: status.statistics.resyncs,
            driftSlips: status.statistics.driftSlips,
            driftPpmMeasured: (status.statistics.driftPpm * 10).rounded() / 10,
            stationPpm: scenario.stationPpm,
            stationPpmMeasured: status.statistics.stationClockPpm.map { ($0 * 10).rounded() / 10 },
            duplicatePackets: status.statistics.duplicatePackets, decodeErrors: status.statistics.decodeErrors,
            delayBufferBytes: status.delayBufferBytes, finalState: status.state.rawValue,
            finalDelayMs: status.delay.milliseconds, availableDelayMs: status.availableDelay.milliseconds,
            events: eventReports(), stateChanges: stateChangeReports(), delayErrorMsByMinute: minutes(),
            delayStepMsMax: zip(delayErrors, delayErrors.dropFirst()).map { abs($1 - $0) }.max() ?? 0)
    }

    /// The heard delay's error minute by minute of the run (those measured).
    private func minutes() -> [SimulationReport.Minute] {
        var byMinute: [Int: [Double]] = [:]
        for (error, time) in zip(delayErrors, delayErrorTimes) { byMinute[Int(time / 60), default: []].append(error) }
        return byMinute.keys.sorted().map { minute in
            let sorted = byMinute[minute, default: []].sorted()
            return SimulationReport.Minute(
                minute: minute, minMs: sorted.first ?? 0, medianMs: sorted[sorted.count / 2], maxMs: sorted.last ?? 0)
        }
    }

    /// True time at which output frame `frame` reaches the jack.
    public func jackTime(ofOutputFrame frame: Int64) -> Double {
        let period = Int64(scenario.periodFrames)
        return dac.jackTime(ofFrame: Int(frame % period), requestedAt: dac.requestTime(frame / period, start: start))
    }

    private func eventReports() -> [SimulationReport.Event] {
        let effects = notifications.compactMap { _, notification -> (TimelineEvent, EventTransition, Int64)? in
            guard case .eventTookEffect(let event, let transition, let frame, _) = notification else { return nil }
            return (event, transition, frame)
        }
        return scenario.events.map { scheduled in
            let streamFrame = scheduled.at.audioFrames
            let match = effects.first { effect in
                effect.0.event == scheduled.event
                    && abs(effect.0.position - streamFrame) < Int64(AudioFormat.sampleRate)
            }
            guard let (_, transition, frame) = match else {
                return .init(
                    kind: scheduled.event.kind, streamMs: scheduled.at.milliseconds, transition: "never",
                    firedErrorMs: nil)
            }
            var error: Double?
            if transition == .reached {
                let due =
                    (scheduled.at + scenario.sourceLead + scenario.latency).seconds
                    + Double(delayAt(outputFrame: frame)) / Double(AudioFormat.sampleRate)
                error = (jackTime(ofOutputFrame: frame) - due) * 1000
            }
            return .init(
                kind: scheduled.event.kind, streamMs: scheduled.at.milliseconds, transition: transition.rawValue,
                firedErrorMs: error)
        }
    }

    /// The delay in force when output frame `frame` was rendered, from the notifications.
    private func delayAt(outputFrame frame: Int64) -> Int64 {
        let renderTime = dac.requestTime(frame / Int64(scenario.periodFrames), start: start)
        var delay = scenario.delay.audioFrames
        for (time, notification) in notifications where time <= renderTime {
            if case .delayChanged(let ms, _) = notification { delay = AudioFormat.frames(milliseconds: ms) }
        }
        return delay
    }

    private func stateChangeReports() -> [SimulationReport.StateChange] {
        notifications.compactMap { time, notification in
            guard case .stateChanged(let from, let to, let reason) = notification else { return nil }
            return .init(
                atS: (time.seconds - start.seconds), from: from.rawValue, to: to.rawValue, reason: reason.description)
        }
    }
}
