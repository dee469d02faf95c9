import DelayboxEngine
import Glibc

/// The demo channel (`demo://…`): a live programme made on the box's own clock, so a
/// newcomer sees and hears every state without a network. It is a beeped timecode over a
/// low hum — a short 880 Hz pip each second, a longer 1320 Hz tone every 10 s, a 1760 Hz
/// tone at each minute — so the delay can be heard against a clock, and the broadcaster's
/// events come on a 90 s cycle: muted at 20 s (mute music), unmuted at 35 s, a 10 s ad
/// break at 60 s. Its mute music and ad are built in (`demo://music`, `demo://ad`).
public enum DemoProgramme {
    /// The event cycle.
    public static let cycle = TimeAmount.seconds(90)
    public static let musicURL = "demo://music"
    public static let adURL = "demo://ad"
    /// The ad break's length.
    static let adBreak = TimeAmount.seconds(10)

    /// The events of the first `duration` of the programme, by stream time, on a cycle of
    /// `cycle` (the times above scale with it: `demo://commentary?cycle=9` runs the whole
    /// cycle in 9 s, for a quick look and for tests).
    public static func events(lasting duration: TimeAmount, cycle: TimeAmount = cycle)
        -> [(at: TimeAmount, event: StreamEvent)]
    {
        let scale = { (amount: TimeAmount) in
            TimeAmount(nanoseconds: amount.nanoseconds * cycle.milliseconds / Self.cycle.milliseconds)
        }
        return stride(from: 0, to: duration.nanoseconds, by: Int(cycle.nanoseconds)).flatMap {
            nanoseconds -> [(at: TimeAmount, event: StreamEvent)] in
            let start = TimeAmount(nanoseconds: nanoseconds)
            return [
                (start + scale(.seconds(20)), .streamerMuted), (start + scale(.seconds(35)), .streamerUnmuted),
                (
                    start + scale(.seconds(60)),
                    .adBreak(AdBreak(audioURL: adURL, durationMs: scale(adBreak).milliseconds))
                ),
            ]
        }
    }

    /// The cycle a demo URL asks for (`?cycle=SECONDS`, 3 s to 1 h); the default otherwise.
    public static func cycle(of url: String) -> TimeAmount {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first,
            let value = query.split(separator: "&").first(where: { $0.hasPrefix("cycle=") })?.dropFirst(6),
            let seconds = Double(value), (3...3_600).contains(seconds)
        else { return cycle }
        return .milliseconds(Int64(seconds * 1_000))
    }

    /// Both sides of stream frame `frame` (the same: the programme is mono).
    @Sendable
    public static func sample(frame: Int64) -> (left: Float, right: Float) {
        let rate = Int64(AudioFormat.sampleRate)
        let second = frame / rate
        let within = frame % rate
        let (hertz, length): (Double, Int64) =
            second % 60 == 0
            ? (1_760, rate * 6 / 10)
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
