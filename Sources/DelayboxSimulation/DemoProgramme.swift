import DelayboxEngine
import Foundation

/// The demo channel (`demo://…`): a live programme made on the box's own clock, so a
/// newcomer sees and hears every state without a network. It is a beeped timecode over a
/// low hum — a short 880 Hz pip each second, a longer 1320 Hz tone every 10 s, a 1760 Hz
/// tone at each minute — so the delay can be heard against a clock, and the broadcaster's
/// events come on a 90 s cycle: muted at 20 s (mute music), unmuted at 35 s, a 10 s ad
/// break at 60 s. Its mute music and ad are built in (`demo://music`, `demo://ad`).
public enum DemoProgramme {
    /// The event cycle, ms.
    public static let cycleMs: Int64 = 90_000
    public static let musicURL = "demo://music"
    public static let adURL = "demo://ad"
    /// The ad break's length, ms.
    public static let adBreakMs: Int64 = 10_000

    /// The events of the first `durationMs` of the programme, by stream time.
    public static func events(durationMs: Int64) -> [(atMs: Int64, event: StreamEvent)] {
        stride(from: 0, to: durationMs, by: Int(cycleMs)).flatMap { start -> [(atMs: Int64, event: StreamEvent)] in
            [(start + 20_000, .streamerMuted), (start + 35_000, .streamerUnmuted),
             (start + 60_000, .adBreak(AdBreak(audioURL: adURL, durationMs: adBreakMs)))]
        }
    }

    /// Both sides of stream frame `frame` (the same: the programme is mono).
    @Sendable
    public static func sample(frame: Int64) -> (left: Float, right: Float) {
        let rate = Int64(AudioFormat.sampleRate)
        let second = frame / rate
        let within = frame % rate
        let (hertz, length): (Double, Int64) = second % 60 == 0 ? (1_760, rate * 6 / 10)
            : second % 10 == 0 ? (1_320, rate * 3 / 10) : (880, rate * 6 / 100)
        let time = Double(frame) / Double(rate)
        var value = 0.03 * sin(2 * Double.pi * 220 * time)
        if within < length {
            let fade = Double(AudioFormat.frames(milliseconds: 5))
            let envelope = min(1, Double(within) / fade, Double(length - 1 - within) / fade)
            value += 0.3 * envelope * sin(2 * Double.pi * hertz * time)
        }
        return (Float(value), Float(value))
    }
}
