import DelayboxEngine
import Glibc

/// The console's `tone on`: a 1 kHz sine at −18 dBFS (the usual alignment level) on both
/// channels in place of the programme, for an installer checking speakers and wiring,
/// at the listener's volume (a check should not blast a room).
/// It crossfades in and out over 20 ms, so switching never clicks; the engine keeps
/// recording and playing underneath, so `tone off` returns to the programme at the delay
/// in force.
public struct TestTone: Sendable {
    /// Hz.
    public static let frequency = 1_000.0
    /// Peak amplitude (−18 dBFS).
    public static let amplitude = Float(pow(10, -18.0 / 20))
    /// Whether the tone is (becoming) what is heard.
    public var isOn = false
    /// 0: the programme, 1: the tone; moves by `step` per frame.
    private var mix: Float = 0
    private let step = 1 / Float(AudioFormat.frames(milliseconds: 20))
    /// Radians.
    private var phase = 0.0
    private let increment = 2 * Double.pi * frequency / Double(AudioFormat.sampleRate)

    public init() {}

    /// Mixes the tone into `frames` interleaved stereo frames of programme.
    public mutating func apply(to samples: UnsafeMutablePointer<Float>, frames: Int) {
        if !isOn, mix == 0 { return }
        let target: Float = isOn ? 1 : 0
        for frame in 0..<frames {
            mix = mix < target ? min(target, mix + step) : max(target, mix - step)
            let tone = Float(sin(phase)) * Self.amplitude
            phase += increment
            if phase > 2 * Double.pi { phase -= 2 * Double.pi }
            for channel in 0..<AudioFormat.channelCount {
                let index = frame * AudioFormat.channelCount + channel
                samples[index] = samples[index] * (1 - mix) + tone * mix
            }
        }
    }
}
