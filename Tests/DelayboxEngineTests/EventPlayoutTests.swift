import DelayboxEngine
import DelayboxTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct EventPlayoutTests {
    /// Each event that took effect: how, at which output frame, and how far into it.
    func effects(_ rig: EngineRig) -> [(StreamEvent, EventTransition, Int64, elapsed: Int64)] {
        rig.notifications { notification in
            guard case .eventTookEffect(let event, let transition, let frame, let elapsed) = notification else {
                return nil
            }
            return (event.event, transition, frame, elapsed)
        }
    }

    @Test func anEventTakesEffectWhenPlayoutReachesItNotWhenItArrives() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(10_000)
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
        configuration.initialDelay = .milliseconds(20_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 500)
        rig.events[700] = .streamerMuted
        rig.events[710] = .adBreak(AdBreak(audioURL: "file:///ad.mp3", durationMs: 30_000))
        rig.run(milliseconds: 12_000)  // recorded both; playout (20 s behind) has not reached them
        #expect(effects(rig).isEmpty)
        rig.engine.setDelay(.milliseconds(2_000), now: rig.now)
        rig.run(milliseconds: 200)
        #expect(effects(rig).map(\.1) == [.executedByJump, .executedByJump])
        let status = rig.engine.status(at: rig.now)
        #expect(status.programme.streamerMuted)
        #expect(status.programme.activeAd?.ad.durationMs == 30_000, "jumped into the ad break: it is on")

        rig.engine.setDelay(.milliseconds(19_000), now: rig.now)
        rig.run(milliseconds: 200)
        let undone = effects(rig).dropFirst(2)
        #expect(undone.map(\.0) == [.adBreak(AdBreak(audioURL: "file:///ad.mp3", durationMs: 30_000)), .streamerMuted])
        #expect(undone.allSatisfy { $0.1 == .undoneByJump })
        #expect(!rig.engine.status(at: rig.now).programme.streamerMuted)
    }

    @Test func eventsResentInAReconnectBurstTakeEffectOnce() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(10_000)
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

    func notTriggered(_ rig: EngineRig) -> [String] {
        rig.notifications { notification in
            guard case .eventNotTriggered(_, let reason) = notification else { return nil }
            return reason
        }
    }

    /// Icecast resends the current title to every new connection, and with it the ad tag
    /// the title still carries, at a new place: a reconnect during the break and one after
    /// it must not play the ad again.
    @Test func anAdTagResentOnEachReconnectPlaysOnce() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(5_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 300)
        let ad = StreamEvent.adBreak(AdBreak(audioURL: "file:///ad.mp3", durationMs: 4_000))
        rig.events[560] = ad
        rig.run(milliseconds: 8_000)  // the break reached at 5 s behind live
        for pause in [Int64(1_000), 6_000] {  // during the break, then after it
            rig.disconnect()
            rig.run(milliseconds: pause)
            rig.reconnect(burstPackets: 200, announcing: [.title("Ad break"), ad])
            rig.run(milliseconds: 8_000)
        }
        #expect(effects(rig).filter { $0.0 == ad }.map(\.1) == [.reached], "the break plays once")
        #expect(
            notTriggered(rig).count == 2 && notTriggered(rig).allSatisfy { $0.contains("resent") },
            "\(notTriggered(rig))")
        #expect(rig.engine.status(at: rig.now).programme.activeAd == nil)
    }

    /// A rig at 5 s delay that played 2 s and has now been disconnected for 500 ms.
    static func rigAfterAnOutage() throws -> EngineRig {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(5_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 300)
        rig.run(milliseconds: 2_000)
        rig.disconnect()
        rig.run(milliseconds: 500)
        return rig
    }

    /// A box that connects while the title carries an ad tag without a start (a start, a
    /// restart, a switch to the channel) did not hear the break begin and cannot tell
    /// whether it is over: it plays no ad. Muted is state: it applies.
    @Test func aBreakOnAirWhenTheBoxConnectsIsNotPlayedButMutedApplies() throws {
        let rig = try Self.rigAfterAnOutage()
        let ad = StreamEvent.adBreak(AdBreak(audioURL: "file:///ad.mp3", durationMs: 30_000))
        rig.reconnect(burstPackets: 200, announcing: [.streamerMuted, ad])
        rig.run(milliseconds: 10_000)
        #expect(!effects(rig).contains { $0.0 == ad })
        #expect(notTriggered(rig) == ["on air when the connection opened: its start was not heard here"])
        #expect(rig.engine.status(at: rig.now).programme.streamerMuted)
    }

    /// A box that connects during a break whose tag says when it began (a start, a
    /// restart, a switch back, a reconnect after missing the tag) places the break there:
    /// at 5 s delay, one 10 s long that began 1 s ago is still ahead of playout and heard
    /// whole; one that began 8 s ago is heard from 3 s in, 12 s ago from 7 s in (over at
    /// live, not yet where the listener is); 20 s ago it is over and not heard. Its tag
    /// resent on the next reconnect is the same break.
    @Test(arguments: [(Int64(1_000), Int64?(0)), (8_000, 3_000), (12_000, 7_000), (20_000, nil)])
    func aBreakOnAirWhenTheBoxConnectsPlaysWhatIsLeftOfIt(startedAgoMs: Int64, heardFromMs: Int64?) throws {
        let rig = try Self.rigAfterAnOutage()
        let ad = StreamEvent.adBreak(
            AdBreak(audioURL: "file:///ad.mp3", durationMs: 10_000, startedAt: 1_795_500_300.25))
        rig.reconnect(burstPackets: 200, announcing: [.title("Ad break"), ad], startedAgo: .milliseconds(startedAgoMs))
        rig.run(milliseconds: 5_000)
        rig.disconnect()
        rig.run(milliseconds: 500)
        rig.reconnect(
            burstPackets: 200, announcing: [.title("Ad break"), ad], startedAgo: .milliseconds(startedAgoMs + 5_500))
        rig.run(milliseconds: 12_000)
        let heard = effects(rig).filter { $0.0 == ad }
        let over = "on air when the connection opened: over where playout is"
        if let heardFromMs {
            #expect(heard.count == 1, "once: \(heard)")
            let elapsedMs = AudioFormat.milliseconds(frames: heard.first?.elapsed ?? -1)
            #expect(abs(elapsedMs - heardFromMs) <= 20, "heard from \(elapsedMs) ms in")
            // Still held (it runs past the oldest audio kept): the resend is recognised.
            #expect(notTriggered(rig) == ["resent on reconnecting: the break is already on the timeline"])
        } else {
            #expect(heard.isEmpty, "over where playout is: \(heard)")
            #expect(notTriggered(rig) == [over, over])
        }
        #expect(rig.engine.status(at: rig.now).programme.activeAd == nil)
    }

    /// A box that starts 9 s into a 10 s break holds no audio from its start (the server's
    /// burst is 6 s): the break is still kept for playout, 5 s behind live, to play its rest.
    @Test func aBreakBegunBeforeTheFirstAudioHeldStillPlaysItsRest() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(5_000)
        let ad = StreamEvent.adBreak(
            AdBreak(audioURL: "file:///ad.mp3", durationMs: 10_000, startedAt: 1_795_500_300.25))
        let rig = try EngineRig(
            configuration: configuration, burstPackets: 300, announcing: [ad], startedAgo: .seconds(9))
        rig.run(milliseconds: 3_000)
        let heard = effects(rig).filter { $0.0 == ad }
        #expect(heard.count == 1, "\(heard)")
        #expect(abs(AudioFormat.milliseconds(frames: heard.first?.elapsed ?? 0) - 4_000) <= 20, "\(heard)")
    }

    /// A tag that says when its break began names the break: sent again later on the same
    /// connection (a broadcaster resending the title) it does not play the ad again.
    @Test func anAdTagWithItsStartSentAgainPlaysOnce() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(5_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 300)
        let ad = StreamEvent.adBreak(
            AdBreak(audioURL: "file:///ad.mp3", durationMs: 4_000, startedAt: 1_795_500_300.25))
        rig.events[560] = ad
        rig.events[600] = ad
        rig.run(milliseconds: 12_000)
        #expect(effects(rig).filter { $0.0 == ad }.count == 1)
        #expect(notTriggered(rig) == ["sent again: the break is already on the timeline"])
    }

    /// Issue 44: Icecast resends the current title at every connection; the state it
    /// carries is an event only where it is news. Two reconnects while muted: "muted"
    /// takes effect once (each glitch made it a new event, logged and published again); a
    /// change made while the box was away (unmuted, a new title) still takes effect.
    @Test func stateResentAtEachConnectionIsAnEventOnlyWhenItChanged() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(3_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 200)
        rig.events[560] = .streamerMuted
        rig.events[561] = .title("Half-time")
        rig.run(milliseconds: 6_000)
        for _ in 0..<2 {
            rig.disconnect()
            rig.run(milliseconds: 500)
            rig.reconnect(burstPackets: 100, announcing: [.title("Half-time"), .streamerMuted])
            rig.run(milliseconds: 4_000)
        }
        #expect(effects(rig).map(\.0) == [.streamerMuted, .title("Half-time")], "\(effects(rig).map(\.0))")
        rig.disconnect()
        rig.run(milliseconds: 500)
        rig.reconnect(burstPackets: 100, announcing: [.title("Second half"), .streamerUnmuted])
        rig.run(milliseconds: 5_000)
        #expect(
            effects(rig).map(\.0).suffix(2) == [.title("Second half"), .streamerUnmuted], "\(effects(rig).map(\.0))")
        #expect(!rig.engine.status(at: rig.now).programme.streamerMuted)
    }

    /// A jump toward live past the end of a break plays no ad: at the new place the break
    /// is over (status says no ad, and the mixer is told nothing).
    @Test func aJumpTowardLivePastABreaksEndPlaysNoAd() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(20_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 500)
        let ad = StreamEvent.adBreak(AdBreak(audioURL: "file:///ad.mp3", durationMs: 2_000))
        rig.events[700] = ad  // live 4 s in
        rig.run(milliseconds: 12_000)
        rig.engine.setDelay(.milliseconds(2_000), now: rig.now)  // to 6 s after the break's end
        rig.run(milliseconds: 200)
        #expect(effects(rig).isEmpty, "\(effects(rig))")
        #expect(notTriggered(rig) == ["over where playout is"], "the log says why")
        #expect(rig.engine.status(at: rig.now).programme.activeAd == nil)
    }
}
