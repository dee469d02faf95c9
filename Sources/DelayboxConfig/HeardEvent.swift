/// A stream event as the box heard it, for the page's and MQTT's `events` (docs/mqtt.md):
/// what it was, where it sits in the stream and when it was heard. Written by the box,
/// decoded by the tests.
public struct HeardEvent: Codable, Equatable, Sendable {
    /// `title`, `muted`, `unmuted`, `ad`.
    public var kind: String
    public var detail: String
    /// `reached`, `executedByJump`, `undoneByJump`, …
    public var transition: String
    /// For an ad: how far into it it was joined (ms).
    public var elapsedMs: Int64?
    /// Where it sits on the connection's timeline (s).
    public var streamS: Double
    /// When it was heard (Unix time, ms).
    public var heardUnixMs: Int64

    public init(
        kind: String, detail: String, transition: String, elapsedMs: Int64?, streamS: Double, heardUnixMs: Int64
    ) {
        (self.kind, self.detail, self.transition, self.elapsedMs) = (kind, detail, transition, elapsedMs)
        (self.streamS, self.heardUnixMs) = (streamS, heardUnixMs)
    }

    enum CodingKeys: String, CodingKey {
        case kind, detail, transition
        case elapsedMs = "elapsed_ms"
        case streamS = "stream_s"
        case heardUnixMs = "heard_unix_ms"
    }
}
