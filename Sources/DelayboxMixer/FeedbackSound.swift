import DelayboxEngine
import Glibc

/// What the box says back when a control is used: short synthesised sounds, distinct
/// enough to tell apart without looking (docs/controls.md).
public enum FeedbackSound: Sendable, Equatable {
    /// One encoder detent: a 4 ms tick.
    case click
    /// The knob now adjusts the other quantity (delay ↔ volume): two rising tones.
    case modeChange
    /// A setting hit its limit: two low beeps.
    case limitReached
    /// A command failed: a falling tone.
    case error
    /// The delay, read out in tones when no speech synthesiser is installed: a long low
    /// tone per minute, a middle tone per 10 s, a short high tone per second.
    case delayInTones(milliseconds: Int64)

    /// The sound, ready to mix.
    public var clip: AudioClip {
        switch self {
        case .click:
            return AudioClip(
                stereo: Self.stereo(
                    (0..<Int(AudioFormat.frames(milliseconds: 4))).map { frame in
                        let time = Double(frame) / Double(AudioFormat.sampleRate)
                        return Float(sin(2 * Double.pi * 3_000 * time) * exp(-time / 0.001)) * 0.3
                    }))
        case .modeChange:
            return Self.sequence([(660, 60), (0, 20), (990, 60)])
        case .limitReached:
            return Self.sequence([(330, 70), (0, 40), (330, 70)])
        case .error:
            return Self.sweep(from: 440, to: 220, milliseconds: 250)
        case .delayInTones(let milliseconds):
            let seconds = Int(milliseconds / 1_000)
            var parts: [(Double, Int)] = []
            for (count, tone) in [
                (min(seconds / 60, 9), (330.0, 300)), ((seconds % 60) / 10, (440.0, 120)), (seconds % 10, (880.0, 60)),
            ] {
                for _ in 0..<count { parts += [tone, (0, 90)] }
                if count > 0 { parts.append((0, 150)) }
            }
            return Self.sequence(parts.isEmpty ? [(880, 30)] : parts)
        }
    }

    /// Amplitude of the tonal sounds (about −12 dBFS: heard over programme, not startling).
    private static let level = 0.25

    /// Tones (Hz, ms; 0 Hz: a pause) one after the other, each faded in and out over 5 ms.
    private static func sequence(_ parts: [(hertz: Double, milliseconds: Int)]) -> AudioClip {
        var mono: [Float] = []
        for part in parts {
            let frames = Int(AudioFormat.frames(milliseconds: Int64(part.milliseconds)))
            let fade = Double(AudioFormat.frames(milliseconds: 5))
            mono += (0..<frames).map { frame in
                guard part.hertz > 0 else { return 0 }
                let envelope = min(1, Double(frame) / fade, Double(frames - 1 - frame) / fade)
                return Float(
                    sin(2 * Double.pi * part.hertz * Double(frame) / Double(AudioFormat.sampleRate)) * envelope * level)
            }
        }
        return AudioClip(stereo: stereo(mono))
    }

    /// A tone gliding (exponentially) between two pitches, faded at both ends.
    private static func sweep(from start: Double, to end: Double, milliseconds: Int) -> AudioClip {
        let frames = Int(AudioFormat.frames(milliseconds: Int64(milliseconds)))
        let fade = Double(AudioFormat.frames(milliseconds: 5))
        var phase = 0.0
        let mono = (0..<frames).map { frame -> Float in
            let hertz = start * pow(end / start, Double(frame) / Double(frames))
            phase += 2 * Double.pi * hertz / Double(AudioFormat.sampleRate)
            let envelope = min(1, Double(frame) / fade, Double(frames - 1 - frame) / fade)
            return Float(sin(phase) * envelope * level)
        }
        return AudioClip(stereo: stereo(mono))
    }

    private static func stereo(_ mono: [Float]) -> [Float] { mono.flatMap { [$0, $0] } }
}
