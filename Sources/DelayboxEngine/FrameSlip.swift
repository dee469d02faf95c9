/// Stretches `inFrames` interleaved stereo frames to `outFrames` (one more or one fewer)
/// by linear interpolation across the whole chunk: the first and last frames stay, every
/// frame between moves by less than one, so the waveform has no step.
enum FrameSlip {
    static func stretch(
        _ input: UnsafePointer<Float>, frames inFrames: Int, into output: UnsafeMutablePointer<Float>,
        frames outFrames: Int
    ) {
        let channels = AudioFormat.channelCount
        guard outFrames > 1, inFrames > 1 else {
            output.update(from: input, count: min(inFrames, outFrames) * channels)
            return
        }
        let step = Double(inFrames - 1) / Double(outFrames - 1)
        for frame in 0..<outFrames {
            let position = Double(frame) * step
            let index = min(Int(position), inFrames - 2)
            let fraction = Float(position - Double(index))
            for channel in 0..<channels {
                let a = input[index * channels + channel], b = input[(index + 1) * channels + channel]
                output[frame * channels + channel] = a + (b - a) * fraction
            }
        }
    }
}
