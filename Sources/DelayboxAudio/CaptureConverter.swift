import DelayboxEngine

/// Converts a capture device's frames into what a line-in channel records: 16-bit
/// stereo, interleaved (CD quality, half the memory of Float for minutes of delay). A
/// mono input feeds both channels; a wider one gives its first two.
public struct CaptureConverter: Sendable {
    public let format: OutputFormat

    public init(format: OutputFormat) { self.format = format }

    /// Bytes of one converted frame.
    public static let bytesPerFrame = 2 * MemoryLayout<Int16>.size

    /// Converts `frames` frames from `source` (the device's format) into `destination`,
    /// which holds at least `frames * 2` samples.
    public func convert(_ source: UnsafeRawPointer, frames: Int, into destination: UnsafeMutablePointer<Int16>) {
        switch format.sampleFormat {
        case .s16: load(source, frames: frames, into: destination, as: Int16.self) { $0 }
        // S24_LE sits in the low three bytes of 32: sign-extend, keep the top 16 bits.
        case .s24:
            load(source, frames: frames, into: destination, as: Int32.self) {
                Int16(truncatingIfNeeded: ($0 << 8) >> 16)
            }
        case .s32:
            load(source, frames: frames, into: destination, as: Int32.self) { Int16(truncatingIfNeeded: $0 >> 16) }
        }
    }

    private func load<Sample: FixedWidthInteger>(
        _ source: UnsafeRawPointer, frames: Int, into destination: UnsafeMutablePointer<Int16>,
        as: Sample.Type, _ sixteenBits: (Sample) -> Int16
    ) {
        let samples = source.bindMemory(to: Sample.self, capacity: frames * format.channels)
        let channels = format.channels
        for frame in 0..<frames {
            let base = frame * channels
            destination[2 * frame] = sixteenBits(samples[base])
            destination[2 * frame + 1] = sixteenBits(samples[base + min(1, channels - 1)])
        }
    }
}
