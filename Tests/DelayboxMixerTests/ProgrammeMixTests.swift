import DelayboxEngine
import DelayboxMixer
import DelayboxSimulation
import DelayboxTestSupport
import Foundation
import Testing

/// The programme mix driven by the engine in virtual time (20 ms periods): events take
/// effect at their frame in delayed time and every level moves on its ramp.
@Suite(.timeLimit(.minutes(10))) struct ProgrammeMixTests {
    /// Mute music and ad as constants (distinct levels), long enough not to loop here.
    static let music = AudioClip(samples: [Int16](repeating: 3_277, count: 2 * 48_000 * 20))
    static let ad = AudioClip(samples: [Int16](repeating: 6_554, count: 2 * 48_000 * 20))
    static let musicLevel = Float(3_277) / 32_767
    static let adLevel = Float(6_554) / 32_767
    static let adURL = "file:///ad.mp3"

    /// A rig at 10 s delay whose output goes through a programme mix; `silent` makes the
    /// stream digital silence so music and ad levels can be read exactly.
    static func rig(silent: Bool, events: [Int64: StreamEvent]) throws -> (EngineRig, ProgrammeMix) {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(10_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 500)
        if silent { rig.feed.silentPackets = 0..<100_000 }
        rig.events = events
        let mix = ProgrammeMix()
        mix.setMuteMusic(Self.music, url: "file:///music.mp3")
        mix.provideAd(Self.ad, url: Self.adURL)
        let engine = rig.engine
        rig.output.afterRender = { buffer, first in mix.mix(buffer, renderedBy: engine, firstFrame: first) }
        return (rig, mix)
    }

    /// The output frame at which the `index`th event took effect.
    static func effectFrame(_ rig: EngineRig, _ index: Int = 0) throws -> Int {
        let frames: [Int64] = rig.notifications { notification in
            guard case .eventTookEffect(_, _, let frame, _) = notification else { return nil }
            return frame
        }
        return Int(try #require(frames.dropFirst(index).first))
    }

    /// Frame `k` of a constant clip of `value`: every clip starts with a 5 ms fade (240 frames).
    static func clipSample(_ value: Int16, _ k: Int) -> Float {
        Float(k >= 240 ? value : Int16((Float(value) * Float(k) / 240).rounded())) / 32_767
    }

    static func left(_ rig: EngineRig, _ frame: Int) -> Float { rig.output.samples[2 * frame] }

    /// Muted: the music comes in on a straight 800 ms line starting at the event's frame,
    /// exactly; unmuted: it goes out the same way.
    @Test func muteBringsInTheMusicOnAnExactRampAndUnmuteTakesItOut() throws {
        let (rig, mix) = try Self.rig(silent: true, events: [600: .streamerMuted, 700: .streamerUnmuted])
        rig.run(milliseconds: 18_000)
        let muted = try Self.effectFrame(rig)
        let ramp = Int(ProgrammeMix.Ramp.mute.audioFrames)
        #expect(Self.left(rig, muted - 1) == 0)
        for k in [0, 1, 100, 239, 240, 19_200, ramp - 2] {
            let expected = Self.clipSample(3_277, k) * Float(k + 1) / Float(ramp)
            #expect(abs(Self.left(rig, muted + k) - expected) < 1e-6, "frame \(k) of the fade-in")
        }
        #expect(Self.left(rig, muted + ramp) == Self.musicLevel)
        let unmuted = try Self.effectFrame(rig, 1)
        #expect(unmuted - muted == 96_000, "100 packets of 960 frames later")
        #expect(Self.left(rig, unmuted - 1) == Self.musicLevel)
        #expect(abs(Self.left(rig, unmuted + ramp / 2 - 1) - Self.musicLevel / 2) < 1e-6)
        #expect(rig.output.samples[(2 * (unmuted + ramp))...].allSatisfy { $0 == 0 }, "silent stream, music gone")
        #expect(!mix.isMuted)
    }

    /// The tone stream fades out on the same 800 ms line while the music fades in: each
    /// 1 kHz cycle's peak follows 1 − t/800 ms; after, only the music is there.
    @Test func theStreamFadesOutAsTheMusicFadesIn() throws {
        let (rig, _) = try Self.rig(silent: false, events: [600: .streamerMuted])
        rig.run(milliseconds: 16_000)
        let muted = try Self.effectFrame(rig)
        let ramp = Int(ProgrammeMix.Ramp.mute.audioFrames)
        for k in stride(from: 0, to: ramp, by: 4_800) {
            let cycle = (muted + k..<muted + k + 48).map { Self.left(rig, $0) }
            let amplitude = ((cycle.max() ?? 0) - (cycle.min() ?? 0)) / 2
            let expected = 0.5 * (1 - Float(k + 24) / Float(ramp))
            #expect(abs(amplitude - expected) < 0.003, "\(k) frames in: amplitude \(amplitude), expected \(expected)")
        }
        let after = (muted + ramp..<muted + ramp + 4_800).map { Self.left(rig, $0) }
        #expect(after.allSatisfy { $0 == Self.musicLevel })
    }

    /// An ad break with ads on: music (muted before) ducks over 300 ms while the ad comes
    /// in over 10 ms; the ad plays for the break's 2 s, goes out over 50 ms and the music
    /// comes back over 300 ms.
    @Test func anAdBreakDucksTheRestPlaysTheAdAndRestoresTheLevels() throws {
        let ad = AdBreak(audioURL: Self.adURL, durationMs: 2_000)
        let (rig, mix) = try Self.rig(silent: true, events: [600: .streamerMuted, 700: .adBreak(ad)])
        rig.run(milliseconds: 20_000)
        let start = try Self.effectFrame(rig, 1)
        let duck = Int(ProgrammeMix.Ramp.duck.audioFrames)
        let adIn = Int(ProgrammeMix.Ramp.adIn.audioFrames)
        for k in [0, 1, 239, 240, adIn - 1, adIn, 7_200, duck - 1] {
            let expected =
                Self.musicLevel * (1 - Float(k + 1) / Float(duck)) + Self.clipSample(6_554, k)
                * min(1, Float(k + 1) / Float(adIn))
            #expect(abs(Self.left(rig, start + k) - expected) < 1e-5, "frame \(k) of the break")
        }
        let length = Int(AudioFormat.frames(milliseconds: ad.durationMs))
        #expect(Self.left(rig, start + duck) == Self.adLevel)
        #expect(Self.left(rig, start + length - 1) == Self.adLevel)
        let out = Int(ProgrammeMix.Ramp.adOut.audioFrames)
        let k = out / 2 - 1
        let expected = Self.adLevel * (1 - Float(k + 1) / Float(out)) + Self.musicLevel * Float(k + 1) / Float(duck)
        #expect(abs(Self.left(rig, start + length + k) - expected) < 1e-5, "ad going out, music coming back")
        #expect(Self.left(rig, start + length + duck) == Self.musicLevel)
        #expect(mix.playingAd == nil)
    }

    @Test func withAdsOffABreakIsIgnoredAndLogged() throws {
        let (rig, mix) = try Self.rig(
            silent: true,
            events: [600: .streamerMuted, 700: .adBreak(AdBreak(audioURL: Self.adURL, durationMs: 2_000))])
        mix.adsEnabled = false
        rig.run(milliseconds: 20_000)
        let start = try Self.effectFrame(rig, 1)
        #expect(
            (start - 4_800..<start + 96_000).allSatisfy { Self.left(rig, $0) == Self.musicLevel },
            "the music goes on untouched")
        #expect(mix.drainLog().contains { $0.hasPrefix("ad break ignored (ads off)") })
    }

    @Test func anAdWhoseAudioIsMissingIsSilenceForItsBreak() throws {
        let missing = AdBreak(audioURL: "https://example.invalid/ad.mp3", durationMs: 1_000)
        let (rig, mix) = try Self.rig(silent: false, events: [600: .adBreak(missing)])
        rig.run(milliseconds: 16_000)
        let start = try Self.effectFrame(rig)
        let duck = Int(ProgrammeMix.Ramp.duck.audioFrames)
        #expect(
            (start + duck..<start + 48_000).allSatisfy {
                rig.output.samples[2 * $0] == 0 && rig.output.samples[2 * $0 + 1] == 0
            })
        let back = start + 48_000 + duck
        #expect(abs(Self.left(rig, back + 12) - 0.5) < 0.01, "the stream is back at full level after the break")
        #expect(mix.drainLog().contains { $0.contains("ad audio not available") })
    }

    /// A jump towards live into a break plays the ad; a jump back before the break stops
    /// it and brings the programme back.
    @Test func aJumpOverABreakPlaysTheAdAndAJumpBackStopsIt() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(20_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 500)
        rig.events[710] = .adBreak(AdBreak(audioURL: Self.adURL, durationMs: 30_000))
        let mix = ProgrammeMix()
        mix.provideAd(Self.ad, url: Self.adURL)
        let engine = rig.engine
        rig.output.afterRender = { buffer, first in mix.mix(buffer, renderedBy: engine, firstFrame: first) }
        rig.run(milliseconds: 12_000)
        #expect(mix.playingAd == nil)
        _ = rig.engine.setDelay(.milliseconds(2_000), now: rig.now)
        rig.run(milliseconds: 1_000)
        #expect(mix.playingAd?.durationMs == 30_000)
        #expect(
            rig.output.samples.suffix(2 * 960).allSatisfy { $0 == Self.adLevel }, "the ad plays, the stream is ducked")
        #expect(mix.drainLog().contains { $0.contains("ms in, to its break's end") })
        _ = rig.engine.setDelay(.milliseconds(19_000), now: rig.now)
        rig.run(milliseconds: 1_000)
        #expect(mix.playingAd == nil)
        let end = Int(rig.output.frameCount)
        #expect(
            (end - 9_600..<end).allSatisfy { SignalChecks.code(rig.output.samples, frame: $0) != nil },
            "only the stream (its exact position code) is heard: the ad is gone")
    }

    /// An ad whose every frame says which it is: frame k carries k mod 16384 on the left
    /// and k / 16384 on the right (in 1/32767 steps, below the limiter's ceiling).
    static let numberedAd = AudioClip(samples: (0..<48_000 * 10).flatMap { [Int16($0 % 16_384), Int16($0 / 16_384)] })

    /// The frame of `numberedAd` output frame `frame` carries, if it is the ad alone at full level.
    static func adFrame(_ rig: EngineRig, _ frame: Int) -> Int {
        Int((rig.output.samples[2 * frame] * 32_767).rounded()) + 16_384
            * Int((rig.output.samples[2 * frame + 1] * 32_767).rounded())
    }

    /// A jump towards live into the middle of a break plays the rest of it: the ad from as
    /// far into it as the break is at the new place (not from its start), and the stream
    /// back when the break's end comes — on time, as its position code shows.
    @Test func aJumpIntoABreakPlaysTheRestOfItAndTheStreamComesBackOnTime() throws {
        let (rig, mix, ad) = try Self.afterAJumpIntoABreak(lengthMs: 8_000, playing: 8_000)
        let jumped: [(Int, Int64)] = rig.notifications { notification in
            guard case .eventTookEffect(_, .executedByJump, let frame, let elapsed) = notification else { return nil }
            return (Int(frame), elapsed)
        }
        let (start, elapsed) = try #require(jumped.first)
        let length = Int(AudioFormat.frames(milliseconds: ad.durationMs))
        #expect(elapsed > 48_000 && elapsed < length - 48_000, "landed well inside the break: \(elapsed) frames in")
        let rest = length - Int(elapsed)
        let duck = Int(ProgrammeMix.Ramp.duck.audioFrames)
        for k in [duck, duck + 1, rest / 2, rest - 1] {
            #expect(Self.adFrame(rig, start + k) == Int(elapsed) + k, "\(k) frames after the jump")
        }
        #expect(mix.playingAd == nil, "over at the break's end")
        #expect(
            mix.drainLog().contains { $0.contains("ad plays from \(AudioFormat.milliseconds(frames: elapsed)) ms in") })
        // Once the levels are back, the stream's position code says where the break ended.
        let after = start + rest + duck + 480
        let code = try #require(SignalChecks.code(rig.output.samples, frame: after), "the stream alone, at full level")
        let breakEnd = Int64(681_600 + length) % ToneCodec.codePeriod
        let sinceEnd = Int((code - breakEnd + ToneCodec.codePeriod) % ToneCodec.codePeriod)
        #expect(abs(after - sinceEnd - (start + rest)) <= 1, "the ad ended where the break does in the stream")
    }

    /// A rig 20 s behind live whose break (at stream frame 681 600) a jump to 2 s has
    /// entered 5.82 s into it, run on `playing` ms, with the numbered ad (10 s).
    static func afterAJumpIntoABreak(lengthMs: Int64, playing: Int64) throws -> (EngineRig, ProgrammeMix, AdBreak) {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(20_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 500)
        let ad = AdBreak(audioURL: Self.adURL, durationMs: lengthMs)
        rig.events[710] = .adBreak(ad)
        let mix = ProgrammeMix()
        mix.provideAd(Self.numberedAd, url: Self.adURL)
        let engine = rig.engine
        rig.output.afterRender = { buffer, first in mix.mix(buffer, renderedBy: engine, firstFrame: first) }
        rig.run(milliseconds: 12_000)
        _ = rig.engine.setDelay(.milliseconds(2_000), now: rig.now)
        rig.run(milliseconds: playing)
        return (rig, mix, ad)
    }

    /// Where the last jump moved playout in the break: the output frame and how far in.
    static func moved(_ rig: EngineRig) throws -> (frame: Int, elapsed: Int64) {
        let moves: [(Int, Int64)] = rig.notifications { notification in
            guard case .eventTookEffect(_, .movedByJump, let frame, let elapsed) = notification else { return nil }
            return (Int(frame), elapsed)
        }
        return try #require(moves.last, "the jump moved the break")
    }

    /// A delay change inside a break, towards live or back: the break's end is a place in
    /// the programme, so the ad goes on as it was (no seek in it to be heard) and ends where
    /// the break ends in the stream (its position code says so). Before, the mix counted
    /// the rest of the break in frames rendered: the ad ended 1 s off.
    @Test(arguments: [1_000, 3_000] as [Int64])
    func aJumpInsideABreakMovesTheAdAndItsEnd(to delayMs: Int64) throws {
        let (rig, mix, ad) = try Self.afterAJumpIntoABreak(lengthMs: 9_500, playing: 1_000)
        #expect(mix.playingAd == ad, "inside the break, 6.82 s in")
        _ = rig.engine.setDelay(.milliseconds(delayMs), now: rig.now)
        rig.run(milliseconds: 8_000)
        let (start, elapsed) = try Self.moved(rig)
        let length = Int(AudioFormat.frames(milliseconds: ad.durationMs))
        #expect(elapsed > 96_000 && elapsed < length - 48_000, "still inside the break: \(elapsed) frames in")
        let rest = length - Int(elapsed)
        let before = Self.adFrame(rig, start - 1)
        for k in [0, 1, rest / 3] {  // (the 10 s ad runs out before a longer break ends)
            #expect(Self.adFrame(rig, start + k) == before + 1 + k, "the ad goes on, \(k) frames after the jump")
        }
        #expect(mix.playingAd == nil, "over at the break's end")
        let duck = Int(ProgrammeMix.Ramp.duck.audioFrames)
        let after = start + rest + duck + 480
        let code = try #require(SignalChecks.code(rig.output.samples, frame: after), "the stream alone, at full level")
        let breakEnd = Int64(681_600 + length) % ToneCodec.codePeriod
        let sinceEnd = Int((code - breakEnd + ToneCodec.codePeriod) % ToneCodec.codePeriod)
        #expect(abs(after - sinceEnd - (start + rest)) <= 1, "the ad ended where the break does in the stream")
    }

    /// A jump towards live past the end of the break playing ends its ad there and then:
    /// the programme at the new place has no break. Before, the ad played on over the
    /// stream for what the mix had left to count, while the status said no ad.
    @Test func aJumpPastTheEndOfTheBreakPlayingEndsItsAd() throws {
        let (rig, mix, ad) = try Self.afterAJumpIntoABreak(lengthMs: 7_500, playing: 1_000)
        #expect(mix.playingAd == ad, "inside the break, 6.82 s in")
        _ = rig.engine.setDelay(.milliseconds(1_000), now: rig.now)
        rig.run(milliseconds: 20)
        let (start, elapsed) = try Self.moved(rig)
        #expect(elapsed >= AudioFormat.frames(milliseconds: ad.durationMs), "past its end: \(elapsed) frames in")
        #expect(mix.playingAd == nil)
        #expect(mix.drainLog().contains("ad ended: a jump past its break's end"))
        rig.run(milliseconds: 1_000)
        let duck = Int(ProgrammeMix.Ramp.duck.audioFrames)
        #expect(
            (start + duck + 480..<start + duck + 9_600).allSatisfy {
                SignalChecks.code(rig.output.samples, frame: $0) != nil
            },
            "only the stream is heard once the levels are back")
    }

    /// A jump back before a break already heard replays it when playout reaches it again:
    /// the programme at a place is what it was, wherever playout jumps (docs/stream-events.md).
    @Test func aJumpBackBeforeABreakHeardPlaysItAgain() throws {
        let (rig, mix, ad) = try Self.afterAJumpIntoABreak(lengthMs: 8_000, playing: 3_000)
        #expect(mix.playingAd == nil, "heard to its end")
        _ = rig.engine.setDelay(.milliseconds(20_000), now: rig.now)
        let undone = rig.notifications { notification -> Int64? in
            guard case .eventTookEffect(_, .undoneByJump, let frame, _) = notification else { return nil }
            return frame
        }
        rig.run(milliseconds: 100)
        #expect(
            rig.notifications { if case .eventTookEffect(_, .undoneByJump, _, _) = $0 { true } else { nil } }.count
                == undone.count + 1)
        #expect(rig.run(until: { _ in mix.playingAd == ad }, limitMs: 30_000), "reached again")
        let reached: [Int] = rig.notifications { notification in
            guard case .eventTookEffect(_, .reached, let frame, _) = notification else { return nil }
            return Int(frame)
        }
        let again = try #require(reached.last)
        rig.run(milliseconds: 1_000)
        let duck = Int(ProgrammeMix.Ramp.duck.audioFrames)
        #expect(Self.adFrame(rig, again + duck + 100) == duck + 100, "from its start")
    }

    /// The connection drops 1 s into a 4 s break and comes back 1.5 s later, playout going
    /// on over the audio held: the ad goes on with it, frame after frame, and ends where
    /// the break does (it paused while reconnecting, and ended that much late, on a live
    /// Icecast 0.5–1.1 s).
    @Test func anAdRunsOnThroughAReconnectAndEndsWithItsBreak() throws {
        let ad = AdBreak(audioURL: Self.adURL, durationMs: 4_000)
        let (rig, mix) = try Self.rig(silent: false, events: [700: .adBreak(ad)])
        mix.provideAd(Self.numberedAd, url: Self.adURL)
        #expect(rig.run(until: { !$0.notifications { if case .eventTookEffect = $0 { true } else { nil } }.isEmpty }))
        let start = try Self.effectFrame(rig)
        rig.run(milliseconds: 1_000)
        rig.disconnect()
        rig.run(milliseconds: 1_500)
        #expect(rig.engine.state == .reconnecting)
        rig.reconnect(burstPackets: 200)
        rig.run(milliseconds: 4_000)
        let length = Int(AudioFormat.frames(milliseconds: ad.durationMs))
        let duck = Int(ProgrammeMix.Ramp.duck.audioFrames)
        for k in [duck, 48_000 + 960, 96_000, 120_000, length - 1] {
            #expect(Self.adFrame(rig, start + k) == k, "\(k) frames into the break")
        }
        #expect(mix.playingAd == nil, "over at the break's end")
        let after = start + length + duck + 480
        let code = try #require(SignalChecks.code(rig.output.samples, frame: after), "the stream alone, at full level")
        let breakEnd = Int64(700 * 960 + length) % ToneCodec.codePeriod
        let sinceEnd = Int((code - breakEnd + ToneCodec.codePeriod) % ToneCodec.codePeriod)
        #expect(abs(after - sinceEnd - (start + length)) <= 1, "the ad ended where the break does in the stream")
    }

    /// An ad whose audio comes only during its break (a box that joined mid-break fetches
    /// it then) comes in where the break is — on its 10 ms ramp, for the rest of the break.
    @Test func anAdThatArrivesDuringItsBreakPlaysFromWhereTheBreakIs() throws {
        let ad = AdBreak(audioURL: "file:///late.mp3", durationMs: 2_000)
        let (rig, mix) = try Self.rig(silent: true, events: [700: .adBreak(ad)])
        rig.run(milliseconds: 14_500)
        let start = try Self.effectFrame(rig)
        let arrived = Int(rig.output.frameCount)
        #expect(arrived - start > 9_600, "the break began before its audio came")
        mix.provideAd(Self.numberedAd, url: ad.audioURL)
        rig.run(milliseconds: 2_000)
        let adIn = Int(ProgrammeMix.Ramp.adIn.audioFrames)
        #expect(Self.left(rig, arrived - 1) == 0, "silence until then")
        for k in [adIn, adIn + 1, 24_000] {
            #expect(Self.adFrame(rig, arrived + k) == arrived - start + k, "\(k) frames after it came")
        }
        let steps = (arrived..<arrived + adIn).map { abs(Self.left(rig, $0 + 1) - Self.left(rig, $0)) }
        #expect((steps.max() ?? 1) < 0.01, "no click: it ramps in")
        #expect(mix.drainLog().contains { $0.hasPrefix("ad audio ready") })
        #expect(mix.playingAd == nil, "over at the break's end")
    }

    /// Paused: the programme (here mute music) fades out and holds; a feedback click is
    /// heard exactly as synthesised; resumed: the music goes on where it stopped.
    @Test func pausedSilencesTheProgrammeButNotTheFeedback() throws {
        let (rig, mix) = try Self.rig(silent: true, events: [600: .streamerMuted])
        rig.run(milliseconds: 14_000)
        #expect(Self.left(rig, Int(rig.output.frameCount) - 1) == Self.musicLevel)
        rig.engine.pause(now: rig.now)
        rig.run(milliseconds: 200)
        let click = FeedbackSound.click.clip
        mix.play(click)
        let from = Int(rig.output.frameCount)
        rig.run(milliseconds: 40)
        for frame in 0..<click.frames {
            #expect(Self.left(rig, from + frame) == click.sample(frame, 0))
        }
        #expect((from + click.frames..<from + 1_920).allSatisfy { Self.left(rig, $0) == 0 })
        rig.engine.resume(now: rig.now)
        rig.run(milliseconds: 1_000)
        #expect(Self.left(rig, Int(rig.output.frameCount) - 1) == Self.musicLevel)
    }

    /// Every transition in a busy programme (mute, ad, unmute, a pause, feedback) moves no
    /// sample further from the last than the tone stream's own steepest step allows.
    @Test func noTransitionClicks() throws {
        let ad = AdBreak(audioURL: Self.adURL, durationMs: 1_500)
        let (rig, mix) = try Self.rig(
            silent: false,
            events: [
                560: .streamerMuted, 600: .adBreak(ad), 700: .streamerUnmuted,
                760: .adBreak(ad),
            ])
        rig.run(milliseconds: 20_000)
        mix.play(FeedbackSound.modeChange.clip)
        rig.engine.pause(now: rig.now)
        rig.run(milliseconds: 500)
        rig.engine.resume(now: rig.now)
        rig.run(milliseconds: 2_000)
        let left = stride(from: 0, to: rig.output.samples.count, by: 2).map { rig.output.samples[$0] }
        let steps = zip(left, left.dropFirst()).map { abs($1 - $0) }
        let toneStep = Float(0.5 * 2 * Double.pi / 48)  // the 1 kHz tone's steepest step
        #expect((steps.max() ?? 1) < toneStep * 1.1, "largest step \(steps.max() ?? 1) vs the tone's \(toneStep)")
    }
}
