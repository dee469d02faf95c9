import DelayboxConfig
import DelayboxJSON
import FoundationEssentials

/// What a box of a group says on `delaybox/group/<group>/venue/<box>` every few seconds
/// (issue 58, docs/mqtt.md): a run of the stream named by its fingerprint, and when the
/// box takes it to have been live on the wall clock (the room's boxes keep theirs within a
/// millisecond with chrony: docs/deploy.md). Another box that holds the same run compares
/// with its own line (`VenueAlignment`).
public struct VenueFigure: Codable, Sendable, Equatable {
    public let box: String
    /// `PlaybackEngine.venueMarkPackets` packets' fingerprint, 16 hex digits.
    public let fingerprint: String
    /// Unix time (ns) at which the box takes the run's first frame to have been live.
    public let liveUnixNs: Int64
    /// Whether the box has played in the room a while (`VenueAlignment.settledAfter`): the
    /// room holds for a newcomer, which moves to it. Absent (an older release): settled.
    public let settled: Bool?

    enum CodingKeys: String, CodingKey {
        case box, fingerprint
        case liveUnixNs = "live_unix_ns"
        case settled
    }

    public init(box: String, fingerprint: UInt64, liveUnixNs: Int64, settled: Bool) {
        self.box = box
        self.fingerprint = String(fingerprint, radix: 16)
        self.liveUnixNs = liveUnixNs
        self.settled = settled
    }

    /// The fingerprint as a number; nil when it is not 1-16 hex digits.
    public var fingerprintValue: UInt64? {
        guard (1...16).contains(fingerprint.utf8.count), fingerprint.allSatisfy(\.isHexDigit) else { return nil }
        return UInt64(fingerprint, radix: 16)
    }

    /// A figure as its JSON payload says it; nil for anything else (at most 512 bytes).
    public static func read(_ payload: [UInt8]) -> VenueFigure? {
        guard payload.count <= 512 else { return nil }
        return try? JSONDecoder().decode(VenueFigure.self, from: Data(payload))
    }

    public var json: String { JSONText.encode(answer: self) }
}
