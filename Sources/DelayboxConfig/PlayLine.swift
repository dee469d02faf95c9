/// One line of `delaybox play --json` (docs/stream-events.md): what happened (`type`) and
/// when (`t`, seconds since the start, to the millisecond), with the fields of its type;
/// the others are absent. Written by the player, decoded by the tests.
public struct PlayLine: Codable, Equatable, Sendable {
    public var type: String
    public var t: Double?
    /// `state`: the session's state before and after, and why.
    public var from: String?
    public var to: String?
    public var reason: String?
    /// `delay`, `available_delay`, `audio_lost`, `pause_dropped`: milliseconds.
    public var ms: Int64?
    /// `event`: `title`, `muted`, `unmuted`, `ad`; how it reads; `reached`,
    /// `executedByJump`, `undoneByJump`, `not_triggered`, …; for an ad, how far into it.
    public var kind: String?
    public var detail: String?
    public var transition: String?
    public var elapsedMs: Int64?
    /// `event`: the output frame it took effect at.
    public var outputFrame: Int64?
    /// `audio_lost`: where on the timeline (frames).
    public var position: Int64?
    /// `spliced`: how much of a reconnect's audio matched what was held (ms).
    public var overlapMs: Int64?
    /// `channel`: the channel that starts playing.
    public var name: String?
    public var url: String?
    /// `ffmpeg`: what FFmpeg said.
    public var message: String?
    /// `info`: a line for people.
    public var text: String?
    /// `station_clock`: how far the station's clock runs off this box's (ppm, to 0.1).
    public var ppm: Double?

    public init(type: String, t: Double? = nil) {
        self.type = type
        self.t = t
    }

    /// A channel starts playing.
    public static func channel(name: String, url: String, t: Double) -> PlayLine {
        var line = PlayLine(type: "channel", t: t)
        (line.name, line.url) = (name, url)
        return line
    }

    /// A line FFmpeg wrote.
    public static func ffmpeg(_ message: String) -> PlayLine {
        var line = PlayLine(type: "ffmpeg")
        line.message = message
        return line
    }

    /// A line for people.
    public static func info(_ text: String, t: Double) -> PlayLine {
        var line = PlayLine(type: "info", t: t)
        line.text = text
        return line
    }

    enum CodingKeys: String, CodingKey {
        case type, t, from, to, reason, ms, kind, detail, transition
        case elapsedMs = "elapsed_ms"
        case outputFrame = "output_frame"
        case position
        case overlapMs = "overlap_ms"
        case name, url, message, text, ppm
    }
}
