import DelayboxEngine
import DelayboxTestSupport
import Testing

@Suite struct TimeShiftTests {
    @Test func aTwoMinutePauseResumesOnTheExactSample() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelayMs = 5_000
        let rig = try EngineRig(configuration: configuration)
        rig.run(milliseconds: 10_000)
        let pauseFrame = Int(rig.output.frameCount)
        let lastHeard = try #require(SignalChecks.exactFrames(rig.output.samples).last)
        rig.engine.pause(now: rig.now)
        rig.run(milliseconds: 120_000)
        #expect(rig.engine.state == .paused)
        #expect(rig.output.samples[(2 * (pauseFrame + 960))...].prefix(2 * 960 * 100).allSatisfy { $0 == 0 }, "silent while paused")
        rig.engine.resume(now: rig.now)
        let resumeFrame = Int(rig.output.frameCount)
        rig.run(milliseconds: 1_000)
        let after = SignalChecks.exactFrames(Array(rig.output.samples[(2 * resumeFrame)...]))
        let first = try #require(after.first)
        // The pause took effect at the frame after the last one heard; the fade-in covers
        // 5 ms from there, then every frame is exact again.
        #expect(first.streamFrame - lastHeard.streamFrame == Int64(first.frame) + 1 + 1)
        #expect(first.frame < 250)
        let delay = rig.engine.status(at: rig.now).delayMs
        #expect(abs(delay - 125_000) <= 20, "the delay grew by the pause")
        #expect(rig.engine.state == .playing)
    }

    @Test func aPauseLongerThanTheMaximumDropsTheOldestAudioAndSaysSo() throws {
        var configuration = EngineConfiguration()
        configuration.maxDelayMs = 10_000
        configuration.initialDelayMs = 2_000
        let rig = try EngineRig(configuration: configuration)
        rig.run(milliseconds: 3_000)
        rig.engine.pause(now: rig.now)
        rig.run(milliseconds: 20_000)
        let dropped = rig.notifications { notification -> Int64? in
            guard case .pauseExceededMaximum(let frames) = notification else { return nil }
            return frames
        }
        #expect(!dropped.isEmpty)
        rig.engine.resume(now: rig.now)
        rig.run(milliseconds: 500)
        #expect(rig.engine.status(at: rig.now).delayMs == 10_000, "capped at the maximum")
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 10_000) < 1)
    }
}
