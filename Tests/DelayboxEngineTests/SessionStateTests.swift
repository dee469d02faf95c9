import DelayboxEngine
import DelayboxTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct SessionStateTests {
    @Test func goesFromIdleThroughBufferingToPlayingWithReasons() throws {
        let rig = try EngineRig(configuration: EngineConfiguration())
        rig.run(milliseconds: 100)
        let changes = rig.notifications { notification -> (SessionState, SessionState, StateChangeReason)? in
            guard case .stateChanged(let from, let to, let reason) = notification else { return nil }
            return (from, to, reason)
        }
        #expect(changes.map(\.1) == [.connecting, .buffering, .playing])
        #expect(changes.last?.2 == .bufferFilled)
        #expect(rig.engine.state == .playing)
    }

    @Test func aLongerInitialBufferWaitsUntilItIsFilled() throws {
        var configuration = EngineConfiguration()
        configuration.initialBuffer = .seconds(3)
        configuration.initialDelay = .milliseconds(3_000)
        // Only 1 s of burst: 2 more seconds must be recorded before playing.
        let rig = try EngineRig(configuration: configuration, burstPackets: 50)
        rig.run(milliseconds: 1_900)
        #expect(rig.engine.state == .buffering)
        #expect(rig.run(until: { $0.engine.state == .playing }, limitMs: 300))
        #expect(rig.engine.status(at: rig.now).bufferedAhead.milliseconds >= 2_900)
    }

    /// A 20 s delay from a 6 s burst: buffering while 14 s more is recorded, the status
    /// counting it down in step with the clock; then playing, and nothing left to build.
    @Test func aDelayLongerThanTheBurstIsBuiltAndCountedDown() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(20_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 300)
        rig.run(milliseconds: 100)
        let first = try #require(rig.engine.status(at: rig.now).delayToBuild?.milliseconds, "building")
        #expect(abs(first - 13_900) <= 40, "\(first) ms to go")
        rig.run(milliseconds: 5_000)
        #expect(rig.engine.state == .buffering)
        let later = try #require(rig.engine.status(at: rig.now).delayToBuild?.milliseconds)
        #expect(first - later == 5_000, "counted down with the clock: \(first) → \(later)")
        #expect(rig.run(until: { $0.engine.state == .playing }, limitMs: 9_500))
        #expect(rig.engine.status(at: rig.now).delayToBuild?.milliseconds == nil)
        #expect(abs(rig.engine.status(at: rig.now).heardDelayMs - 20_000) < 25)
    }

    @Test func refusesAnInvalidConfigurationWithEveryProblem() {
        var configuration = EngineConfiguration()
        configuration.initialBuffer = .milliseconds(500)
        configuration.maxDelay = .milliseconds(1)
        #expect(throws: InvalidConfiguration.self) {
            try PlaybackEngine(configuration: configuration, decoderFactory: { fatalError("not reached") })
        }
        #expect(configuration.problems().count == 3, "buffer, maximum delay, and the initial delay above it")
    }

    @Test func rebuffersAtTheLiveEdgeAndDeliversTheQueuedAudioWithoutAGap() throws {
        let rig = try EngineRig(configuration: EngineConfiguration())
        rig.run(milliseconds: 5_000)
        let delayBefore = rig.engine.status(at: rig.now).delay.milliseconds
        rig.stalled = true
        rig.run(milliseconds: 3_000)
        #expect(rig.engine.state == .buffering)
        #expect(rig.engine.status(at: rig.now).statistics.underruns == 1)
        rig.stalled = false
        #expect(rig.run(until: { $0.engine.state == .playing }, limitMs: 5_000))
        rig.run(milliseconds: 2_000)

        // Every exact frame heard is a new stream frame, one after the other, except
        // across the 5 ms fades around the hold (where frames are scaled, not exact).
        let heard = SignalChecks.exactFrames(rig.output.samples)
        let jumps = zip(heard, heard.dropFirst()).map { $1.streamFrame - $0.streamFrame }
        #expect(jumps.allSatisfy { $0 > 0 }, "no stream frame is heard twice")
        #expect((jumps.max() ?? 0) <= 250, "only the 240 fade frames (5 ms) are not exact")
        let rebuffered = rig.notifications { notification -> Int64? in
            guard case .delayChanged(let ms, .rebuffered) = notification else { return nil }
            return ms
        }
        #expect(rebuffered.count == 1)
        // The stall lasted 3 s, of which the 1 s buffer played through; the backlog
        // arrives at once, so playout resumes at once, 2 s later than it would have.
        #expect(abs(rebuffered[0] - (delayBefore + 2_000)) <= 60)
    }

    @Test func aFailureSaysWhyAndSilencesPlayout() throws {
        let rig = try EngineRig(configuration: EngineConfiguration())
        rig.run(milliseconds: 2_000)
        rig.engine.fail(reason: "unsupported codec", now: rig.now)
        rig.run(milliseconds: 100)
        #expect(rig.engine.state == .failed)
        #expect(
            rig.output.notifications.last { if case .stateChanged = $0.notification { true } else { false } }?
                .notification
                == .stateChanged(from: .playing, to: .failed, reason: .failure("unsupported codec")))
        #expect(rig.output.samples.suffix(960 * 2).allSatisfy { $0 == 0 })
    }

    @Test func stopFadesOutAndStaysSilent() throws {
        let rig = try EngineRig(configuration: EngineConfiguration())
        rig.run(milliseconds: 2_000)
        rig.engine.stop(now: rig.now)
        rig.run(milliseconds: 100)
        #expect(rig.engine.state == .stopped)
        let lastPeriod = rig.output.samples.suffix(960 * 2)
        #expect(lastPeriod.allSatisfy { $0 == 0 })
        let stopFrame = Int(rig.output.frameCount) - 5 * 960
        #expect(SignalChecks.largestStep(rig.output.left(stopFrame..<(stopFrame + 960))) <= SignalChecks.toneStep * 1.5)
    }
}
