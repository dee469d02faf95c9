import DelayboxEngine

/// A decoded sound held in memory — mute music, an ad, a feedback sound — as 16-bit
/// stereo at 48 kHz (11.5 MB per minute: half of Float, and more than the files' own
/// precision).
public struct AudioClip: Sendable, Equatable {
    /// Interleaved stereo.
    public private(set) var samples: [Int16]
    public var frames: Int { samples.count / AudioFormat.channelCount }

    /// From interleaved stereo Float samples (clamped to full scale).
    public init(stereo: [Float]) {
        samples = stereo.map { Int16((min(1, max(-1, $0)) * 32_767).rounded()) }
    }

    public init(samples: [Int16]) {
        self.samples = samples
    }

    /// Sample `channel` of `frame`, as Float.
    @inline(__always)
    public func sample(_ frame: Int, _ channel: Int) -> Float {
        Float(samples[frame * AudioFormat.channelCount + channel]) / 32_767
    }

    /// All of it as interleaved stereo Float, full scale ±1 (as `sample` gives each).
    public var floatSamples: [Float] { samples.map { Float($0) / 32_767 } }

    /// Length in milliseconds.
    public var milliseconds: Int64 { AudioFormat.milliseconds(frames: Int64(frames)) }

    /// This clip with its first and last `milliseconds` faded (linear), so that it starts,
    /// ends and loops without a click whatever its first and last samples are.
    public func fadedAtBothEnds(milliseconds: Int64) -> AudioClip {
        var copy = self
        let length = min(Int(AudioFormat.frames(milliseconds: milliseconds)), frames / 2)
        guard length > 0 else { return copy }
        for frame in 0..<length {
            let gain = Float(frame) / Float(length)
            for channel in 0..<AudioFormat.channelCount {
                let head = frame * AudioFormat.channelCount + channel
                let tail = (frames - 1 - frame) * AudioFormat.channelCount + channel
                copy.samples[head] = Int16((Float(samples[head]) * gain).rounded())
                copy.samples[tail] = Int16((Float(samples[tail]) * gain).rounded())
            }
        }
        return copy
    }
}

extension AudioClip {
    /// A clip from interleaved samples in another format (a speech synthesiser's 22 kHz
    /// mono), converted like the mixer converts a source.
    public init(converting samples: [Float], format: SourceFormat) {
        var converter = RateConverter()
        converter.reset(to: format)
        let frames = samples.count / format.channels
        var stereo = [Float](
            repeating: 0, count: max(1, converter.outputFrames(forInput: frames)) * AudioFormat.channelCount)
        let written = stereo.withUnsafeMutableBufferPointer { output in
            samples.withUnsafeBufferPointer { input in
                converter.convert(inputFrames: frames, into: output.baseAddress!) { input[$0 * format.channels + $1] }
            }
        }
        self.init(stereo: Array(stereo.prefix(written * AudioFormat.channelCount)))
    }
}
