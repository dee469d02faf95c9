import DelayboxEngine
import DelayboxTestSupport
import Testing

/// A channel recorded while another plays (`Channel.record`, issue 26): switching back
/// keeps the delay at once.
@Suite struct BackgroundRecordingTests {
    @Test func aChannelRecordedInTheBackgroundPlaysAtOnceAtTheDelayInForce() throws {
        var configuration = EngineConfiguration()
        configuration.maxDelayMs = 60_000
        let rig = try EngineRig(configuration: configuration)
        rig.run(milliseconds: 5_000)
        #expect(rig.engine.status(at: rig.now).state == .playing)
        rig.engine.standBy(now: rig.now)
        rig.playing = false
        rig.run(milliseconds: 60_000)
        let bytesAtMaximum = rig.engine.status(at: rig.now).delayBufferBytes
        rig.run(milliseconds: 60_000)
        let standing = rig.engine.status(at: rig.now)
        #expect(standing.state == .buffering && standing.availableDelayMs == 60_000, "recording on, within the maximum")
        let bytes = rig.engine.status(at: rig.now).delayBufferBytes
        #expect(abs(bytes - bytesAtMaximum) <= bytesAtMaximum / 20, "held no more than the maximum's worth: \(bytesAtMaximum) → \(bytes) bytes")

        // Switched back at a 45 s delay (the one in force on the other channel).
        #expect(rig.engine.setDelay(milliseconds: 45_000, now: rig.now) == 45_000)
        rig.playing = true
        let switched = Int(rig.output.frameCount)
        rig.run(milliseconds: 1_000)
        #expect(rig.engine.status(at: rig.now).state == .playing)
        let heard = try #require(rig.heardDelayMs(atOutput: switched + 3 * 960), "the programme within three periods")
        #expect(abs(heard - 45_000) < 1, "\(heard) ms")
        let later = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(later - 45_000) < 1, "\(later) ms")
    }
}
