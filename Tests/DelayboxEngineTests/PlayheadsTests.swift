import DelayboxSimulation
import Testing

@testable import DelayboxEngine

/// The read heads on their own (issue 69: the playheads a type with its state private):
/// the test tone tells which stream frame each rendered frame is.
@Suite(.timeLimit(.minutes(10))) struct PlayheadsTests {
    /// Ten seconds of the tone on a line, 1152-frame packets from position 0.
    static func line() -> DelayLine {
        let line = DelayLine()
        for first in stride(from: Int64(0), to: 480_000, by: 1_152) {
            _ = line.append(
                ToneCodec.packet(firstFrame: first, frames: 1_152, bytes: 384), durationFrames: 1_152, at: first)
        }
        return line
    }

    static func heads() -> Playheads {
        Playheads(
            decoderFactory: { ToneDecoder() }, chunkFrames: 960, fadeFrames: 240, crossfadeFrames: 2_400,
            settleFrames: 96)
    }

    /// The stream frames `count` rendered frames carry, from the tone's right channel.
    static func frames(_ heads: Playheads, _ count: Int, line: DelayLine) -> (
        frames: [Int64?], rendered: Playheads.Rendered
    ) {
        var out = [Float](repeating: 0, count: count * 2)
        let rendered = out.withUnsafeMutableBufferPointer {
            heads.render(into: $0.baseAddress!, frames: count, line: line, advanceBeyondData: false)
        }
        return (stride(from: 1, to: out.count, by: 2).map { ToneCodec.code(right: out[$0]) }, rendered)
    }

    /// A seek plays on from there, frame after frame.
    @Test func aSeekPlaysOnFromThere() {
        let (line, heads) = (Self.line(), Self.heads())
        heads.seek(to: 48_000)
        let heard = Self.frames(heads, 960, line: line).frames
        #expect(heard == (48_000..<48_960).map { Optional($0) } && heads.position == 48_960)
    }

    /// A jump lands where asked and crossfades for its length; then only the new place is
    /// heard, continuing; a shift moves the heads with the audio.
    @Test func aJumpCrossfadesToItsLanding() {
        let (line, heads) = (Self.line(), Self.heads())
        heads.seek(to: 48_000)
        _ = Self.frames(heads, 960, line: line)
        #expect(heads.jump(to: 240_000, aligned: false, line: line) == 240_000 && heads.isCrossfading)
        _ = Self.frames(heads, 960, line: line)
        _ = Self.frames(heads, 960, line: line)
        _ = Self.frames(heads, 960, line: line)
        #expect(!heads.isCrossfading)
        let after = Self.frames(heads, 960, line: line).frames
        #expect(after == (242_880..<243_840).map { Optional($0) })
        heads.shift(from: 0, by: 1_000)
        #expect(heads.position == 244_840)
    }

    /// Playout ahead of its target slips: a chunk reads one frame fewer, stretched.
    @Test func playoutAheadSlipsAFrame() {
        let (line, heads) = (Self.line(), Self.heads())
        heads.seek(to: 48_000)
        heads.steer(error: 200, frames: 960)
        let rendered = Self.frames(heads, 960, line: line).rendered
        #expect(rendered.slipped && heads.position == 48_959)
    }
}
