import DelayboxEngine
import DelayboxTestSupport
import Testing

/// A channel recorded while another plays (`Channel.record`, issue 26): switching back
/// keeps the delay at once.
@Suite(.timeLimit(.minutes(10))) struct BackgroundRecordingTests {
    @Test func aChannelRecordedInTheBackgroundPlaysAtOnceAtTheDelayInForce() throws {
        var configuration = EngineConfiguration()
        configuration.maxDelay = .milliseconds(60_000)
        let rig = try EngineRig(configuration: configuration)
        rig.run(milliseconds: 5_000)
        #expect(rig.engine.status(at: rig.now).state == .playing)
        rig.engine.standBy(now: rig.now)
        rig.playing = false
        rig.run(milliseconds: 60_000)
        let bytesAtMaximum = rig.engine.status(at: rig.now).delayBufferBytes
        rig.run(milliseconds: 60_000)
        let standing = rig.engine.status(at: rig.now)
        #expect(
            standing.state == .buffering && standing.availableDelay.milliseconds == 60_000,
            "recording on, within the maximum")
        let bytes = rig.engine.status(at: rig.now).delayBufferBytes
        #expect(
            abs(bytes - bytesAtMaximum) <= bytesAtMaximum / 20,
            "held no more than the maximum's worth: \(bytesAtMaximum) → \(bytes) bytes")

        // Switched back at a 45 s delay (the one in force on the other channel).
        #expect(rig.engine.setDelay(.milliseconds(45_000), now: rig.now) == .milliseconds(45_000))
        rig.playing = true
        let switched = Int(rig.output.frameCount)
        rig.run(milliseconds: 1_000)
        #expect(rig.engine.status(at: rig.now).state == .playing)
        let heard = try #require(rig.heardDelayMs(atOutput: switched + 3 * 960), "the programme within three periods")
        #expect(abs(heard - 45_000) < 1, "\(heard) ms")
        let later = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(later - 45_000) < 1, "\(later) ms")
    }

    /// How the mute took effect, each time it did.
    static func mutesTakingEffect(_ rig: EngineRig) -> [EventTransition] {
        rig.notifications { notification in
            guard case .eventTookEffect(let event, let transition, _, _) = notification, event.event == .streamerMuted
            else { return nil }
            return transition
        }
    }

    /// Muted when switched away, still muted when switched back: the mix started afresh for
    /// the other channel, so the mute takes effect again. Before, only the events after
    /// where playout had left the channel did, and the stream played where the mute music
    /// should have.
    @Test func switchedBackTheProgrammeIsAsTheStreamHasIt() throws {
        var configuration = EngineConfiguration()
        configuration.maxDelay = .milliseconds(60_000)
        let rig = try EngineRig(configuration: configuration)
        rig.events[600] = .streamerMuted  // 2 s after the start
        rig.run(milliseconds: 10_000)
        #expect(Self.mutesTakingEffect(rig) == [.reached])
        rig.engine.standBy(now: rig.now)
        rig.playing = false
        rig.run(milliseconds: 20_000)
        _ = rig.engine.setDelay(.milliseconds(5_000), now: rig.now)
        rig.playing = true
        rig.run(milliseconds: 1_000)
        #expect(Self.mutesTakingEffect(rig) == [.reached, .executedByJump], "muted again at the switch back")
        let stale = rig.notifications { if case .eventNotTriggered(_, let reason) = $0 { reason } else { nil } }
        #expect(stale.isEmpty, "nothing said again of what is long over: \(stale)")
    }

    /// Recorded in the background for longer than the longest delay: the mute that began
    /// before the oldest audio held was folded away; the first start says it.
    @Test func aChannelNeverPlayedStartsMutedWhenItsMuteIsOlderThanWhatItHolds() throws {
        var configuration = EngineConfiguration()
        configuration.maxDelay = .milliseconds(10_000)
        let rig = try EngineRig(configuration: configuration)
        rig.events[550] = .streamerMuted  // 1 s after the start
        rig.playing = false
        rig.run(milliseconds: 30_000)
        _ = rig.engine.setDelay(.milliseconds(5_000), now: rig.now)
        rig.playing = true
        rig.run(milliseconds: 1_000)
        #expect(Self.mutesTakingEffect(rig) == [.executedByJump])
    }
}
