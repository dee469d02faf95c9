/// A gain that moves linearly towards a target over a fixed number of frames; used to
/// fade playout out and in around pause and re-buffering so they never click.
public struct GainRamp: Sendable {
    /// Current gain, 0...1.
    public private(set) var gain: Float
    private var target: Float
    private let step: Float

    public init(gain: Float, lengthFrames: Int64) {
        self.gain = gain
        target = gain
        step = 1 / Float(max(lengthFrames, 1))
    }

    /// Whether the gain has reached its target.
    public var isSettled: Bool { gain == target }

    public mutating func fade(to target: Float) { self.target = target }

    /// Sets the gain at once (used when playout starts from silence anyway).
    public mutating func jump(to gain: Float) {
        self.gain = gain
        target = gain
    }

    /// Multiplies `frames` interleaved frames by the moving gain.
    public mutating func apply(to samples: UnsafeMutablePointer<Float>, frames: Int) {
        if isSettled {
            if gain == 1 { return }
            if gain == 0 {
                samples.update(repeating: 0, count: frames * AudioFormat.channelCount)
                return
            }
        }
        for frame in 0..<frames {
            if gain < target {
                gain = min(target, gain + step)
            } else if gain > target {
                gain = max(target, gain - step)
            }
            for channel in 0..<AudioFormat.channelCount {
                samples[frame * AudioFormat.channelCount + channel] *= gain
            }
        }
    }
}
