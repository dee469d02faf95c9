import DelayboxTestSupport
import Foundation
import Testing

@testable import DelayboxEngine

/// A placement by arrival time is refined while playing: a connect burst read late (a
/// loaded box) places the audio late, the next packet read on time moves it, and playout
/// jumps to put the delay right.
@Suite(.timeLimit(.minutes(10))) struct CorrectionJumpTests {
    /// The rig's 1 kHz tone (left channel) in each 1 ms period from `start`: RMS per period.
    static func toneLevels(_ rig: EngineRig, from start: Int) -> [Float] {
        let frames = Int(rig.output.frameCount)
        return stride(from: start, to: frames - 48, by: 48).map { period in
            let samples = rig.output.left(period..<(period + 48))
            return (samples.reduce(0) { $0 + $1 * $1 } / 48).squareRoot()
        }
    }

    /// 12.5 ms late is 12.5 periods of the tone: crossfaded in opposite phase, the two
    /// sides cancelled to silence in the middle of the crossfade (a drop-out the stream
    /// tests heard on their 440 Hz tone). The jump lands in phase, and the lag it took
    /// (under a period) is slipped away: the heard delay is the set one again.
    @Test func aCorrectionCrossfadesInPhaseAndTheDelayComesRight() throws {
        let rig = try EngineRig(configuration: EngineConfiguration(), burstPackets: 0)
        rig.stalled = true
        rig.run(milliseconds: 1_200)
        rig.endStall(lateByNanoseconds: 12_500_000)
        rig.stalled = true
        #expect(rig.run(until: { $0.engine.state == .playing }, limitMs: 200), "playout starts on the late placement")
        let playing = Int(rig.output.frameCount)
        #expect(rig.engine.status(at: rig.now).statistics.resyncs == 0)
        rig.stalled = false
        rig.run(milliseconds: 4_000)
        let status = rig.engine.status(at: rig.now)
        #expect(status.statistics.resyncs == 1, "the placement was corrected once")
        // After the start's 5 ms fade-in.
        let levels = Self.toneLevels(rig, from: playing + 480)
        let quietest = try #require(levels.min())
        #expect(
            quietest > 0.3,
            "the tone (RMS 0.35) at its quietest: \(quietest) in period \(levels.firstIndex(of: quietest)!)")
        #expect(status.statistics.driftSlips > 0, "it landed off its target by under a period, and slipped back")
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        let set = Double(rig.engine.delayInFrames) / 48
        #expect(
            abs(heard - set) < 0.05, "heard \(heard) ms, set \(set) ms; \(status.statistics.driftSlips) frames slipped")
    }
}

/// The lag search alone, on the engine's own buffers.
@Suite(.timeLimit(.minutes(10))) struct JumpAlignmentTests {
    /// An alignment of ±96 frames over a 50 ms crossfade, its sides filled by `outgoing`
    /// (frame → sample, both channels) from frame 0 and `incoming` from frame `target - 96`.
    static func lag(target: Int, _ outgoing: (Int) -> Float, _ incoming: (Int) -> Float) -> Int {
        let alignment = JumpAlignment(maximumLagFrames: 96, crossfadeFrames: 2_400)
        for frame in 0..<alignment.windowFrames {
            alignment.outgoing[2 * frame] = outgoing(frame)
            alignment.outgoing[2 * frame + 1] = outgoing(frame)
        }
        for frame in 0..<alignment.incomingFrames {
            alignment.incoming[2 * frame] = incoming(target - 96 + frame)
            alignment.incoming[2 * frame + 1] = incoming(target - 96 + frame)
        }
        return alignment.bestLag()
    }

    /// A 440 Hz tone, frame by frame.
    static func tone(_ frame: Int) -> Float { Float(sin(2 * Double.pi * 440 * Double(frame) / 48_000)) }

    @Test func aToneLandsInPhaseAtTheSmallestLag() {
        // Outgoing plays the tone from frame 0; the target is 70 frames on (0.64 of a period
        // of 109.1 frames): in phase 70 frames before it or 39 after; the nearer wins.
        let lag = Self.lag(target: 70, Self.tone, Self.tone)
        #expect(abs(lag - 39) <= 1, "lag \(lag)")
    }

    @Test func noiseLandsWhereItRepeats() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<6_000).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Float(Int64(state % 2_001) - 1_000) / 1_000
        }
        // The incoming side is the outgoing audio again, 40 frames later than the target.
        #expect(Self.lag(target: 500, { noise[500 + $0] }) { noise[$0 + 40] } == -40)
        #expect(Self.lag(target: 500, { noise[500 + $0] }) { noise[$0 - 40 + 1_000] } == 0, "no match: no lag")
    }

    @Test func silenceOnEitherSideLandsOnTheTarget() {
        #expect(Self.lag(target: 130, { _ in 0 }, Self.tone) == 0)
        #expect(Self.lag(target: 130, Self.tone) { _ in 0 } == 0)
    }
}
