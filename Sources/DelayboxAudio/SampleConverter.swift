import DelayboxEngine

/// Converts the engine's interleaved stereo Float into a device's frames: channel
/// mapping, clipping at full scale and integer conversion in one pass, without
/// allocating (the audio thread calls it for every period).
public struct SampleConverter: Sendable {
    public let format: OutputFormat

    public init(format: OutputFormat) { self.format = format }

    /// Converts `frames` frames from `source` (stereo Float) into `destination`, which
    /// holds at least `frames * format.bytesPerFrame` bytes.
    public func convert(_ source: UnsafePointer<Float>, frames: Int, into destination: UnsafeMutableRawPointer) {
        if format.channels == 2, format.sampleFormat == .s16 {
            return storeStereo16(source, frames: frames, into: destination)
        }
        switch format.sampleFormat {
        case .s16: store(source, frames: frames, into: destination, as: Int16.self)
        case .s24, .s32: store(source, frames: frames, into: destination, as: Int32.self)
        }
    }

    /// Stereo 16-bit, what the boards ask their codecs for: one straight run with no branch
    /// and no trapping conversion, which the compiler vectorises (4 to 8 samples at a time;
    /// the general loop below cost the audio thread a third of its time). Adding 1.5 × 2^23
    /// leaves the rounded sample (half to even) in the Float's low 16 bits.
    private func storeStereo16(_ source: UnsafePointer<Float>, frames: Int, into destination: UnsafeMutableRawPointer) {
        let out = destination.bindMemory(to: Int16.self, capacity: frames * 2)
        for index in 0..<frames * 2 {
            let biased = min(1, max(-1, source[index])) * SampleFormat.s16.fullScale + 12_582_912
            out[index] = Int16(truncatingIfNeeded: biased.bitPattern)
        }
    }

    private func store<Sample: FixedWidthInteger>(
        _ source: UnsafePointer<Float>, frames: Int,
        into destination: UnsafeMutableRawPointer, as: Sample.Type
    ) {
        let out = destination.bindMemory(to: Sample.self, capacity: frames * format.channels)
        let scale = format.sampleFormat.fullScale
        let channels = format.channels
        // Round half away from zero by hand: `rounded()` is a call into libm per sample,
        // a tenth of what the audio thread spends.
        @inline(__always) func sample(_ value: Float) -> Sample {
            let scaled = min(1, max(-1, value)) * scale
            return Sample(truncatingIfNeeded: Int32(scaled + (scaled < 0 ? -0.5 : 0.5)))
        }
        for frame in 0..<frames {
            let left = source[frame * AudioFormat.channelCount], right = source[frame * AudioFormat.channelCount + 1]
            let base = frame * channels
            if channels == 1 {
                out[base] = sample((left + right) * 0.5)
                continue
            }
            out[base] = sample(left)
            out[base + 1] = sample(right)
            for extra in 2..<max(channels, 2) { out[base + extra] = 0 }
        }
    }
}
