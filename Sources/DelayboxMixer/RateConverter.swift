import DelayboxEngine

/// Converts one source's audio to 48 kHz stereo Float as it arrives, keeping the state a
/// resampler needs between calls (the read position and the last input frame), so audio
/// enqueued in pieces converts exactly as if it came in one. Positions are kept as exact
/// fractions (in 1/48000 of an input frame), never as accumulated floating point.
struct RateConverter {
    private(set) var format = SourceFormat.native
    /// Position of the next output frame after `previous`, in 1/48000 of an input frame.
    private var phase = 0
    /// The last input frame of the previous call (left, right).
    private var previous: (Float, Float) = (0, 0)
    private var hasPrevious = false
    private static let denominator = AudioFormat.sampleRate

    /// Forgets the state (a new format, or a gap in the source's timeline).
    mutating func reset(to format: SourceFormat) {
        self.format = format
        phase = 0
        hasPrevious = false
    }

    /// Output frames that `inputFrames` more input frames yield.
    func outputFrames(forInput inputFrames: Int) -> Int {
        if format.sampleRate == AudioFormat.sampleRate { return inputFrames }
        let last = (inputFrames + (hasPrevious ? 1 : 0) - 1) * Self.denominator
        return last < phase ? 0 : (last - phase) / format.sampleRate + 1
    }

    /// Converts `inputFrames` frames of `sample(frame, channel)` into `output`
    /// (interleaved stereo, room for `outputFrames(forInput:)` frames); returns the
    /// frames written.
    mutating func convert(
        inputFrames: Int, into output: UnsafeMutablePointer<Float>,
        sample: (Int, Int) -> Float
    ) -> Int {
        let right = format.channels == 2 ? 1 : 0
        if format.sampleRate == AudioFormat.sampleRate {
            for frame in 0..<inputFrames {
                output[2 * frame] = sample(frame, 0)
                output[2 * frame + 1] = sample(frame, right)
            }
            return inputFrames
        }
        // Input frame i is at index i + offset, where index 0 is `previous` when kept.
        let offset = hasPrevious ? 1 : 0
        let available = inputFrames + offset
        func frame(_ index: Int) -> (Float, Float) {
            index < offset ? previous : (sample(index - offset, 0), sample(index - offset, right))
        }
        let count = outputFrames(forInput: inputFrames)
        for out in 0..<count {
            let position = phase + out * format.sampleRate
            let base = position / Self.denominator
            let fraction = Float(position % Self.denominator) / Float(Self.denominator)
            let a = frame(base)
            let b = base + 1 < available ? frame(base + 1) : a
            output[2 * out] = a.0 + (b.0 - a.0) * fraction
            output[2 * out + 1] = a.1 + (b.1 - a.1) * fraction
        }
        if available > 0 {
            previous = frame(available - 1)
            hasPrevious = true
            phase += count * format.sampleRate - (available - 1) * Self.denominator
        }
        return count
    }
}
