import DelayboxEngine
import DelayboxTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct TimeShiftTests {
    /// The frames each `pauseExceededMaximum` said were dropped.
    static func dropped(_ rig: EngineRig) -> [Int64] {
        rig.notifications { notification -> Int64? in
            guard case .pauseExceededMaximum(let frames) = notification else { return nil }
            return frames
        }
    }

    @Test func aTwoMinutePauseResumesOnTheExactSample() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(5_000)
        let rig = try EngineRig(configuration: configuration)
        rig.run(milliseconds: 10_000)
        let pauseFrame = Int(rig.output.frameCount)
        let lastHeard = try #require(SignalChecks.exactFrames(rig.output.samples).last)
        rig.engine.pause(now: rig.now)
        rig.run(milliseconds: 120_000)
        #expect(rig.engine.state == .paused)
        #expect(
            rig.output.samples[(2 * (pauseFrame + 960))...].prefix(2 * 960 * 100).allSatisfy { $0 == 0 },
            "silent while paused")
        rig.engine.resume(now: rig.now)
        let resumeFrame = Int(rig.output.frameCount)
        rig.run(milliseconds: 1_000)
        let after = SignalChecks.exactFrames(Array(rig.output.samples[(2 * resumeFrame)...]))
        let first = try #require(after.first)
        // The pause took effect at the frame after the last one heard; the fade-in covers
        // 5 ms from there, then every frame is exact again.
        #expect(first.streamFrame - lastHeard.streamFrame == Int64(first.frame) + 1 + 1)
        #expect(first.frame < 250)
        let delay = rig.engine.status(at: rig.now).delay.milliseconds
        #expect(abs(delay - 125_000) <= 20, "the delay grew by the pause")
        #expect(rig.engine.state == .playing)
    }

    @Test func aPauseLongerThanTheMaximumDropsTheOldestAudioAndSaysSo() throws {
        var configuration = EngineConfiguration()
        configuration.maxDelay = .milliseconds(10_000)
        configuration.initialDelay = .milliseconds(2_000)
        let rig = try EngineRig(configuration: configuration)
        rig.run(milliseconds: 3_000)
        rig.engine.pause(now: rig.now)
        rig.run(milliseconds: 20_000)
        #expect(!Self.dropped(rig).isEmpty)
        rig.engine.resume(now: rig.now)
        rig.run(milliseconds: 500)
        #expect(rig.engine.status(at: rig.now).delay.milliseconds == 10_000, "capped at the maximum")
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 10_000) < 1)
    }

    /// Issue 44: a pause while a delay builds (60 s asked for, 10 s held) was parked before
    /// the oldest audio, clamped with "dropped" frames that were never held, and resumed at
    /// once from the oldest audio — the 60 s the settings named abandoned. Now it says
    /// nothing was dropped, builds on after the resume to the delay grown by the pause, and
    /// starts there.
    @Test func aPauseWhileADelayBuildsKeepsBuildingTowardsItGrownByThePause() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(2_000)
        let rig = try EngineRig(configuration: configuration, historyPackets: 500, burstPackets: 100)
        rig.run(milliseconds: 10_000)
        rig.engine.setDelay(.milliseconds(60_000), now: rig.now)
        rig.run(milliseconds: 1_000)
        #expect(rig.engine.state == .buffering, "building the 60 s")
        rig.engine.pause(now: rig.now)
        rig.run(milliseconds: 5_000)
        rig.engine.resume(now: rig.now)
        rig.run(milliseconds: 1_000)
        #expect(Self.dropped(rig).isEmpty, "nothing held was dropped: \(Self.dropped(rig))")
        #expect(rig.engine.state == .buffering, "still building after the resume")
        #expect(
            abs(rig.engine.status(at: rig.now).delay.milliseconds - 65_000) <= 20,
            "the target grew by the pause: \(rig.engine.status(at: rig.now).delay.milliseconds)")
        #expect(rig.run(until: { $0.engine.state == .playing }, limitMs: 70_000))
        rig.run(milliseconds: 1_000)
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 65_000) < 5, "playing at 65 s: \(heard)")
    }
}
