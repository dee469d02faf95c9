import DelayboxEngine
import DelayboxMixer
import DelayboxTestSupport
import Foundation
import Testing

@testable import DelayboxClips
@testable import DelayboxProgramme

/// The controls' answers: distinct synthesised sounds, the delay read out by the real
/// espeak-ng (installed by deploy/setup-host.sh) or in tones, heard through the mix.
@Suite(.timeLimit(.minutes(10))) struct FeedbackTests {
    /// Bursts of sound in a clip: (start, length) in ms, split at 20 ms of silence.
    static func bursts(_ clip: AudioClip) -> [(start: Int, length: Int)] {
        var result: [(Int, Int)] = []
        var start: Int?
        var quiet = 0
        for frame in 0..<clip.frames {
            if abs(clip.sample(frame, 0)) > 0.01 {
                if start == nil { start = frame }
                quiet = 0
            } else if let first = start {
                quiet += 1
                if quiet >= 960 {
                    result.append((first / 48, (frame - quiet - first) / 48))
                    start = nil
                }
            }
        }
        if let first = start { result.append((first / 48, (clip.frames - quiet - first) / 48)) }
        return result
    }

    /// Zero crossings per millisecond of the left channel in `frames`.
    static func pitch(_ clip: AudioClip, _ frames: Range<Int>) -> Double {
        let left = frames.map { clip.sample($0, 0) }
        let crossings = zip(left, left.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / 2 / (Double(frames.count) / 48_000)
    }

    @Test func eachSoundIsDistinct() {
        let click = FeedbackSound.click.clip
        #expect(click.milliseconds <= 5)
        let mode = FeedbackSound.modeChange.clip
        #expect(Self.bursts(mode).count == 1 || Self.bursts(mode).count == 2)
        #expect(Self.pitch(mode, 480..<2_400) < Self.pitch(mode, 4_320..<6_240), "rising")
        let limit = FeedbackSound.limitReached.clip
        #expect(Self.bursts(limit).count == 2, "two beeps: \(Self.bursts(limit))")
        #expect(abs(Self.pitch(limit, 480..<2_880) - 330) < 20)
        let error = FeedbackSound.error.clip
        #expect(Self.pitch(error, 480..<2_880) > Self.pitch(error, 9_120..<11_520) + 100, "falling")
        // 45.3 s: four middle tones (tens) and five short high ones (seconds).
        let tones = Self.bursts(FeedbackSound.delayInTones(milliseconds: 45_300).clip)
        #expect(tones.filter { $0.length > 100 }.count == 4 && tones.filter { $0.length < 70 }.count == 5, "\(tones)")
        let minutes = Self.bursts(FeedbackSound.delayInTones(milliseconds: 125_000).clip)
        #expect(minutes.filter { $0.length > 250 }.count == 2, "two minutes: \(minutes)")
    }

    @Test func theDelayIsSaidAsAListenerWouldSayIt() {
        #expect(SpeechReadout.text(delay: .milliseconds(12_500)) == "12.5 seconds")
        #expect(SpeechReadout.text(delay: .milliseconds(7_000)) == "7 seconds")
        #expect(SpeechReadout.text(delay: .milliseconds(125_000)) == "2 minutes 5 seconds")
        #expect(SpeechReadout.text(delay: .milliseconds(60_000)) == "1 minute")
        #expect(SpeechReadout.text(delay: .milliseconds(59_960)) == "1 minute", "rounded to a tenth")
    }

    /// espeak-ng's WAV on a pipe (placeholder sizes, 22 kHz mono) becomes a 48 kHz stereo
    /// clip of speech: a second or two, loud enough, both sides alike.
    @Test func espeakSpeaksTheDelay() throws {
        let speech = SpeechReadout()
        try #require(speech.executable != nil, "espeak-ng is missing: deploy/setup-host.sh installs it")
        #expect(speech.say(delay: .milliseconds(12_500)))
        let clip = try Eventually.value(of: "espeak-ng's speech", within: 10, every: 0.05) { speech.take().first }
        #expect(clip.milliseconds > 700 && clip.milliseconds < 4_000, "\(clip.milliseconds) ms")
        let peak = clip.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 3_000, "peak \(peak)")
        #expect(stride(from: 0, to: clip.samples.count, by: 2).allSatisfy { clip.samples[$0] == clip.samples[$0 + 1] })
        #expect(SpeechReadout.clip(fromWav: Array("RIFF....WAVEjunk".utf8)) == nil)
    }

    /// Through the appliance's desk: a detent is answered by a click in the next period the
    /// audio thread writes, a limit by its two beeps (not behind the programme the ring
    /// holds); once the knob has rested 1.2 s, the delay is read out in the mix.
    @Test func theDeskAnswersTheKnobAndReadsTheDelayOutWhenItRests() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(5_000)
        let rig = try EngineRig(configuration: configuration, burstPackets: 300)
        rig.feed.silentPackets = 0..<100_000
        let directory = try ExternalTool.temporaryDirectory("desk")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cues = FeedbackCues()
        let desk = ProgrammeDesk(cache: ClipCache(directory: directory, capBytes: 1_000_000), cues: cues)
        let engine = rig.engine
        rig.output.afterRender = { buffer, first in desk.render(buffer, engine: engine, firstFrame: first) }
        rig.run(milliseconds: 8_000)  // the burst (tone) has played out; silence now
        /// What the audio thread adds to the next `milliseconds` of silence.
        func nextPeriods(milliseconds: Int64) -> [Float] {
            var periods = [Float](repeating: 0, count: 2 * Int(AudioFormat.frames(milliseconds: milliseconds)))
            for start in stride(from: 0, to: periods.count, by: 2 * 960) {
                periods.withUnsafeMutableBufferPointer { cues.player.mix(into: $0.baseAddress! + start, frames: 960) }
            }
            return periods
        }
        let from = Int(rig.output.frameCount)
        desk.feedback(
            for: .adjustDelay(milliseconds: 100), outcome: .done, touchedAt: rig.now.nanoseconds, now: rig.now)
        let click = FeedbackSound.click.clip, next = nextPeriods(milliseconds: 20)
        #expect(
            (0..<click.frames).allSatisfy {
                next[2 * $0] == click.sample($0, 0) && next[2 * $0 + 1] == click.sample($0, 1)
            })
        #expect(next[(2 * click.frames)...].allSatisfy { $0 == 0 }, "once")
        desk.feedback(
            for: .adjustDelay(milliseconds: 100), outcome: .limitReached, touchedAt: rig.now.nanoseconds, now: rig.now)
        let limit = FeedbackSound.limitReached.clip
        #expect(
            SignalChecks.firstDifference(
                Array(nextPeriods(milliseconds: 200).prefix(limit.samples.count)),
                limit.floatSamples) == nil)
        rig.run(milliseconds: 220)
        #expect(rig.output.samples[(2 * from)...].allSatisfy { $0 == 0 }, "not in the programme")
        // Resting: nothing until 1.2 s after the last turn, then the read-out.
        let restStart = Int(rig.output.frameCount)
        for _ in 0..<45 {
            rig.run(milliseconds: 20)
            _ = desk.poll(engine: engine, now: rig.now)
        }
        let beforeDue = rig.output.samples[(2 * restStart)...].allSatisfy { $0 == 0 }
        #expect(beforeDue, "quiet while the knob rests")
        // (The read-out is spoken by espeak-ng meanwhile, in real time.)
        let heard = Eventually.holds(within: 10, every: 0.01) {
            rig.run(milliseconds: 20)
            _ = desk.poll(engine: engine, now: rig.now)
            return rig.output.samples.suffix(1_920).contains { abs($0) > 0.05 }
        }
        #expect(heard, "the delay was read out")
    }
}
