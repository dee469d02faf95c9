import DelayboxEngine
import DelayboxTestSupport
import Testing

@Suite struct EventPlayoutTests {
    func effects(_ rig: EngineRig) -> [(StreamEvent, EventTransition, Int64)] {
        rig.notifications { notification in
            guard case .eventTookEffect(let event, let transition, let frame) = notification else { return nil }
            return (event.event, transition, frame)
        }
    }

    @Test func anEventTakesEffectWhenPlayoutReachesItNotWhenItArrives() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelayMs = 10_000
        let rig = try EngineRig(configuration: configuration, burstPackets: 500)
        rig.events[600] = .streamerMuted  // live 2 s after the start
        rig.run(milliseconds: 5_000)
        #expect(effects(rig).isEmpty, "arrived, not yet due")
        rig.run(milliseconds: 10_000)
        let muted = try #require(effects(rig).first)
        #expect(muted.0 == .streamerMuted && muted.1 == .reached)
        // Packet 600 starts at stream frame 576 000, live at 12.0 s; heard 10 s later.
        let jack = rig.jackTime(ofOutput: Int(muted.2))
        #expect(abs(jack - 22.0) < 0.001)
        #expect(rig.engine.status(at: rig.now).programme.streamerMuted)
    }

    @Test func jumpingTowardLiveExecutesWhatWasSkippedAndJumpingBackUndoesIt() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelayMs = 20_000
        let rig = try EngineRig(configuration: configuration, burstPackets: 500)
        rig.events[700] = .streamerMuted
        rig.events[710] = .adBreak(AdBreak(audioURL: "file:///ad.mp3", durationMs: 30_000))
        rig.run(milliseconds: 12_000)  // recorded both; playout (20 s behind) has not reached them
        #expect(effects(rig).isEmpty)
        rig.engine.setDelay(milliseconds: 2_000, now: rig.now)
        rig.run(milliseconds: 200)
        #expect(effects(rig).map(\.1) == [.executedByJump, .executedByJump])
        let status = rig.engine.status(at: rig.now)
        #expect(status.programme.streamerMuted)
        #expect(status.programme.activeAd?.ad.durationMs == 30_000, "jumped into the ad break: it is on")

        rig.engine.setDelay(milliseconds: 19_000, now: rig.now)
        rig.run(milliseconds: 200)
        let undone = effects(rig).dropFirst(2)
        #expect(undone.map(\.0) == [.adBreak(AdBreak(audioURL: "file:///ad.mp3", durationMs: 30_000)), .streamerMuted])
        #expect(undone.allSatisfy { $0.1 == .undoneByJump })
        #expect(!rig.engine.status(at: rig.now).programme.streamerMuted)
    }

    @Test func eventsResentInAReconnectBurstTakeEffectOnce() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelayMs = 10_000
        let rig = try EngineRig(configuration: configuration, burstPackets: 500)
        rig.events[560] = .title("Kick-off")
        rig.run(milliseconds: 2_000)
        rig.disconnect()
        rig.run(milliseconds: 1_000)
        rig.reconnect(burstPackets: 200)  // resends packet 560 and its title
        rig.run(milliseconds: 12_000)
        #expect(effects(rig).count == 1)
        #expect(rig.engine.status(at: rig.now).programme.title == "Kick-off")
    }
}
