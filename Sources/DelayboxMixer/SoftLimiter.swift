import DelayboxEngine
import Glibc

/// Keeps the sum of the sources from clipping, in two stages, without delaying the audio
/// (the mix stays sample-aligned with the timeline):
/// - a gain that follows the sum's peaks: down with a 2 ms time constant while frames
///   exceed the ceiling, held 10 ms, back up with 100 ms — sustained overs (music under a
///   loud ad) are brought down smoothly, never flattened;
/// - a soft knee for what gets through the first milliseconds: above the ceiling
///   (−1 dBFS) a sample is bent by tanh towards full scale, which it never reaches — no
///   flat tops, no harsh harmonics of a hard clip.
/// Below the ceiling, with the gain back at unity, it does nothing: bit-exact.
public struct SoftLimiter: Sendable {
    /// Linear level where limiting starts (−1 dBFS).
    public static let ceiling = AudioFormat.ceiling
    private static let attack = Float(1 - exp(-1 / (0.002 * Double(AudioFormat.sampleRate))))
    private static let release = Float(1 - exp(-1 / (0.100 * Double(AudioFormat.sampleRate))))
    /// The gain stays down this long after the last over (10 ms: a cycle of the lowest
    /// bass), so it settles instead of pumping between the peaks of one waveform.
    private static let holdFrames = Int(AudioFormat.frames(milliseconds: 10))
    private var holdRemaining = 0
    /// Current gain, 0...1.
    public private(set) var gain: Float = 1
    /// Frames in which the limiter changed the sum, for statistics.
    public private(set) var limitedFrames: Int64 = 0

    public init() {}

    /// Limits `frames` interleaved stereo frames in place.
    public mutating func apply(to samples: UnsafeMutablePointer<Float>, frames: Int) {
        if gain == 1, holdRemaining == 0, !Self.exceedsCeiling(samples, count: frames * AudioFormat.channelCount) {
            return  // nearly always: nothing near the ceiling, nothing to do
        }
        for frame in 0..<frames {
            let index = frame * AudioFormat.channelCount
            let peak = max(abs(samples[index]), abs(samples[index + 1]))
            if peak * gain > Self.ceiling {
                gain -= (gain - Self.ceiling / peak) * Self.attack
                holdRemaining = Self.holdFrames
            } else if holdRemaining > 0 {
                holdRemaining -= 1
            } else if gain < 1 {
                gain += (1 - gain) * Self.release
                if gain > 0.999 { gain = 1 }  // −0.009 dB: inaudible, and unity is bit-exact
            }
            guard gain < 1 || peak > Self.ceiling else { continue }
            limitedFrames += 1
            samples[index] = Self.knee(samples[index] * gain)
            samples[index + 1] = Self.knee(samples[index + 1] * gain)
        }
    }

    /// Whether any of `count` samples exceeds the ceiling. Done on the samples' bits: a
    /// float's bits without the sign order like its magnitude, so `ceiling - |sample|` as
    /// 32-bit integers is negative exactly for a sample above it; OR-ing those differences
    /// leaves the sign bit set if any was. Plain integer arithmetic with no branch
    /// vectorises on every x86-64 and ARM (a float maximum, with its NaN rules, does not).
    static func exceedsCeiling(_ samples: UnsafeMutablePointer<Float>, count: Int) -> Bool {
        samples.withMemoryRebound(to: Int32.self, capacity: count) { bits in
            let ceilingBits = Int32(bitPattern: ceiling.bitPattern)
            var differences: Int32 = 0
            for index in 0..<count { differences |= ceilingBits &- (bits[index] & 0x7fff_ffff) }
            return differences < 0
        }
    }

    /// Unity up to the ceiling; above it, bent smoothly (matching slope) towards 1.0.
    @inline(__always)
    static func knee(_ sample: Float) -> Float {
        let magnitude = abs(sample)
        guard magnitude > ceiling else { return sample }
        let room = 1 - ceiling
        let bent = ceiling + room * Float(tanh(Double((magnitude - ceiling) / room)))
        return sample < 0 ? -bent : bent
    }
}
