import DelayboxEngine
import Glibc

/// The demo channel's mute music and ad, synthesised (no files, no network): the music an
/// 8 s loop of a gentle arpeggio, the ad a 10 s two-tone jingle — each unmistakable for
/// the programme and for each other.
public enum DemoClips {
    /// The clip for a `demo://NAME` URL, nil for an unknown name.
    public static func clip(for url: String) -> AudioClip? {
        switch url {
        case "demo://music": music
        case "demo://ad": ad
        default: nil
        }
    }

    /// C major arpeggio (C4 E4 G4 C5 G4 E4…), 250 ms notes with soft attack and decay.
    static let music: AudioClip = notes(
        [261.63, 329.63, 392.00, 523.25, 392.00, 329.63, 261.63, 196.00], note: .milliseconds(250),
        repeats: 4, level: 0.15)
    /// A bright two-tone "ding-dong" chime, repeated.
    static let ad: AudioClip = notes([1_046.5, 783.99, 0, 0], note: .milliseconds(500), repeats: 5, level: 0.25)

    private static func notes(_ pitches: [Double], note: TimeAmount, repeats: Int, level: Double) -> AudioClip {
        let length = Int(note.audioFrames)
        let attack = Double(AudioFormat.frames(milliseconds: 10))
        var mono: [Float] = []
        mono.reserveCapacity(length * pitches.count * repeats)
        for _ in 0..<repeats {
            for hertz in pitches {
                for frame in 0..<length {
                    let time = Double(frame) / Double(AudioFormat.sampleRate)
                    let envelope =
                        min(1, Double(frame) / attack) * exp(-3 * time / note.seconds)
                        * min(1, Double(length - 1 - frame) / attack)
                    let tone = sin(2 * Double.pi * hertz * time) + 0.3 * sin(4 * Double.pi * hertz * time)
                    mono.append(hertz == 0 ? 0 : Float(level * envelope * tone))
                }
            }
        }
        return AudioClip(stereo: mono.flatMap { [$0, $0] })
    }
}
