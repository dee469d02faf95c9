import DelayboxMixer
import DelayboxTestSupport
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct MixerTests {
    /// Mixes `frames` frames and returns them.
    static func mix(_ mixer: Mixer, frames: Int, only: Int? = nil) -> [Float] {
        var out = [Float](repeating: 9, count: frames * 2)
        out.withUnsafeMutableBufferPointer {
            if let only {
                mixer.mix(only: only, into: $0.baseAddress!, frames: frames)
            } else {
                mixer.mix(into: $0.baseAddress!, frames: frames)
            }
        }
        return out
    }

    static func constant(_ value: Float, frames: Int) -> [Float] { [Float](repeating: value, count: frames * 2) }

    @Test func audioIsHeardAtItsTimestampAndSilenceElsewhere() {
        let mixer = Mixer(sources: 2)
        let block = Self.constant(0.25, frames: 100)
        block.withUnsafeBufferPointer { _ = mixer.enqueue(0, samples: $0, at: 100) }
        #expect(mixer.buffered(0) == 100..<200)
        let out = Self.mix(mixer, frames: 300)
        #expect(out[0..<200].allSatisfy { $0 == 0 })
        #expect(out[200..<400].allSatisfy { $0 == 0.25 })
        #expect(out[400...].allSatisfy { $0 == 0 })
        #expect(mixer.position == 300)
        #expect(mixer.buffered(0).isEmpty)
    }

    @Test func sourcesSumAndPanIsABalance() {
        let mixer = Mixer(sources: 2)
        Self.constant(0.25, frames: 10).withUnsafeBufferPointer { _ = mixer.enqueue(0, samples: $0, at: 0) }
        Self.constant(0.125, frames: 10).withUnsafeBufferPointer { _ = mixer.enqueue(1, samples: $0, at: 0) }
        mixer.setPan(1, -1)
        let out = Self.mix(mixer, frames: 10)
        #expect(out[0] == 0.375)
        #expect(out[1] == 0.25, "the right side of a source panned fully left is silent")
    }

    /// A level change is a straight line over exactly its length, frame by frame.
    @Test func levelRampsAreLinearAndSampleAccurate() {
        let mixer = Mixer(sources: 1)
        Self.constant(0.5, frames: 1_000).withUnsafeBufferPointer { _ = mixer.enqueue(0, samples: $0, at: 0) }
        _ = Self.mix(mixer, frames: 100)
        mixer.setLevel(0, 0, over: .milliseconds(10))  // 480 frames
        let out = Self.mix(mixer, frames: 600)
        for frame in [0, 1, 239, 478] {
            let expected = 0.5 * (1 - Float(frame + 1) / 480)
            #expect(abs(out[2 * frame] - expected) < 1e-4, "frame \(frame): \(out[2 * frame]) vs \(expected)")
        }
        #expect(out[2 * 479] == 0)
        #expect(out[(2 * 480)...].allSatisfy { $0 == 0 })
        #expect(SignalChecks.largestStep(out) <= 0.5 / 480 + 1e-5)
    }

    /// A source that stops delivering plays silence, never holds the mix back, turns idle
    /// after the threshold, and plays again when audio comes.
    @Test func aSourceThatStopsTurnsIdleAndComesBack() {
        let mixer = Mixer(sources: 2, idleAfter: .milliseconds(100))
        #expect(mixer.isIdle(0), "never fed")
        Self.constant(0.5, frames: 480).withUnsafeBufferPointer { _ = mixer.enqueue(0, samples: $0, at: 0) }
        Self.constant(0.25, frames: 48_000).withUnsafeBufferPointer { _ = mixer.enqueue(1, samples: $0, at: 0) }
        #expect(!mixer.isIdle(0))
        let first = Self.mix(mixer, frames: 480 + 4_800 - 1)
        #expect(first[0] == 0.75)
        #expect(first.last == 0.25, "the other source goes on")
        #expect(!mixer.isIdle(0), "99.98 ms without audio")
        _ = Self.mix(mixer, frames: 1)
        #expect(mixer.isIdle(0), "100 ms without audio")
        let at = mixer.position + 10
        Self.constant(0.5, frames: 10).withUnsafeBufferPointer { _ = mixer.enqueue(0, samples: $0, at: at) }
        #expect(!mixer.isIdle(0))
        let again = Self.mix(mixer, frames: 20)
        #expect(again[2 * 9] == 0.25 && again[2 * 10] == 0.75)
        mixer.markIdle(1)
        #expect(mixer.isIdle(1) && mixer.buffered(1).isEmpty)
    }

    @Test func lateAudioIsDroppedAndAFullQueueTakesWhatFits() {
        let mixer = Mixer(sources: 1, capacityFrames: 1_000)
        _ = Self.mix(mixer, frames: 50)
        let taken = Self.constant(0.5, frames: 2_000).withUnsafeBufferPointer { mixer.enqueue(0, samples: $0, at: 0) }
        #expect(taken == 1_050, "50 frames too late, then 1000 fit")
        #expect(mixer.buffered(0) == 50..<1_050)
        #expect(mixer.fedUntil(0) == 1_050)
        let out = Self.mix(mixer, frames: 1_000)
        #expect(out.allSatisfy { $0 == 0.5 })
    }

    @Test func dequeueOneSourceAlone() {
        let mixer = Mixer(sources: 2)
        Self.constant(0.25, frames: 10).withUnsafeBufferPointer { _ = mixer.enqueue(0, samples: $0, at: 0) }
        Self.constant(0.125, frames: 20).withUnsafeBufferPointer { _ = mixer.enqueue(1, samples: $0, at: 0) }
        #expect(Self.mix(mixer, frames: 10, only: 1).allSatisfy { $0 == 0.125 })
        #expect(mixer.buffered(0).isEmpty, "the other source's frames were discarded")
        #expect(Self.mix(mixer, frames: 10).allSatisfy { $0 == 0.125 })
    }

    /// Mono 22.05 kHz (espeak-ng's format) arrives as 48 kHz stereo: same pitch, both
    /// sides alike, and enqueued in pieces it converts exactly as in one go.
    @Test func otherFormatsAreConvertedPieceByPieceAsInOne() {
        let format = SourceFormat(channels: 1, sampleRate: 22_050)
        let input = (0..<22_050).map { Float(sin(2 * Double.pi * 441 * Double($0) / 22_050)) * 0.5 }
        let whole = Mixer(sources: 1, capacityFrames: 96_000)
        input.withUnsafeBufferPointer { _ = whole.enqueue(0, samples: $0, format: format, at: 0) }
        let pieces = Mixer(sources: 1, capacityFrames: 96_000)
        var offset = 0
        for size in [1, 100, 4_000, 17_949] {
            input[offset..<offset + size].withUnsafeBufferPointer {
                _ = pieces.enqueue(0, samples: $0, format: format, at: pieces.fedUntil(0) ?? 0)
            }
            offset += size
        }
        #expect(whole.buffered(0) == pieces.buffered(0))
        let frames = Int(whole.buffered(0).upperBound)
        #expect(abs(frames - 48_000) <= 3)
        let a = Self.mix(whole, frames: frames)
        let b = Self.mix(pieces, frames: frames)
        #expect(SignalChecks.firstDifference(a, b) == nil)
        let left = stride(from: 0, to: a.count, by: 2).map { a[$0] }
        #expect(stride(from: 0, to: a.count, by: 2).allSatisfy { a[$0] == a[$0 + 1] })
        let crossings = zip(left, left.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(abs(crossings - 882) <= 2, "\(crossings) zero crossings in a second of 441 Hz")
        for frame in stride(from: 1_000, to: 40_000, by: 997) {
            let expected = Float(sin(2 * Double.pi * 441 * Double(frame) / 48_000)) * 0.5
            #expect(abs(left[frame] - expected) < 0.01, "frame \(frame)")
        }
    }

    /// Two full-scale sines summed (peaks at 2.0) never reach full scale and are not
    /// flattened; the gain settles so the sum sits at the ceiling; unity returns after.
    @Test func theLimiterHoldsTheSumBelowFullScaleWithoutHardClipping() {
        let mixer = Mixer(sources: 3, capacityFrames: 96_000)
        let sine = (0..<48_000).flatMap { frame -> [Float] in
            let value = Float(sin(2 * Double.pi * 200 * Double(frame) / 48_000))
            return [value, value]
        }
        sine.withUnsafeBufferPointer {
            _ = mixer.enqueue(0, samples: $0, at: 0)
            _ = mixer.enqueue(1, samples: $0, at: 0)
        }
        let quiet = sine.map { $0 * 0.25 }
        quiet.withUnsafeBufferPointer { _ = mixer.enqueue(2, samples: $0, at: 48_000) }
        let loud = Self.mix(mixer, frames: 48_000)
        let left = stride(from: 0, to: loud.count, by: 2).map { loud[$0] }
        #expect((left.map(abs).max() ?? 1) < 1)
        let settled = left[4_800...].map(abs).max() ?? 0
        #expect(
            settled < SoftLimiter.ceiling * 1.02 && settled > SoftLimiter.ceiling * 0.95,
            "peak after 100 ms: \(settled)")
        // Only the attack's first milliseconds of a sudden 6 dB over reach the knee's top.
        let flat = zip(left[480...], left[481...]).filter { abs($0) > 0.8 && $0 == $1 }.count
        #expect(flat == 0, "a hard clipper flattens the tops: \(flat) flat samples")
        #expect(SignalChecks.largestStep(loud) <= SignalChecks.largestStep(sine.map { $0 * 2 }))
        let after = Self.mix(mixer, frames: 48_000)
        #expect(
            SignalChecks.firstDifference(Array(after[(2 * 43_200)...]), Array(quiet[(2 * 43_200)...])) == nil,
            "after the release, a source below the ceiling passes bit-exact")
        #expect(mixer.limitedFrames > 0)
    }
}
