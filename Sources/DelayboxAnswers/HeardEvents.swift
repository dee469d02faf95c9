import DelayboxConfig
import DelayboxEngine
import FoundationEssentials

/// The stream events the listener heard, as the console's `events` lists them (the last
/// `kept`, newest last) and as the doors are told of each (`HeardEvent`): what the playout's
/// notifications become once their period is heard. Playout moving within an event (a
/// delay change inside an ad break) is no event heard.
public struct HeardEvents: Sendable {
    /// How many `events` lists.
    public static let kept = 20
    /// The entries, newest last (`NotificationLog.eventEntry`).
    public private(set) var recent: [String] = []

    public init() {}

    /// `notification`, heard at `heard` (wall time): the event the doors are told of, kept
    /// for `events`; nil when it is no event heard.
    /// - Parameter utcOffsetSeconds: the time zone's offset for the entry; nil: the system's.
    public mutating func heard(_ notification: EngineNotification, at heard: Date, utcOffsetSeconds: Int? = nil)
        -> HeardEvent?
    {
        guard case .eventTookEffect(let event, let transition, _, let elapsed) = notification,
            transition != .movedByJump
        else { return nil }
        let entry = NotificationLog.eventEntry(
            NotificationLog.text(notification), streamFrame: event.position, heardAt: heard,
            utcOffsetSeconds: utcOffsetSeconds)
        recent = (recent + [entry]).suffix(Self.kept)
        let unixMs = Int64((heard.timeIntervalSince1970 * 1000).rounded(.down))
        return NotificationLog.heard(event, transition, elapsedFrames: elapsed, heardUnixMs: unixMs)
    }
}
