/// When the status is published: soon after a change, but never twice within
/// `minimumGapNanoseconds` (a knob turned fast is one message per gap, not one per
/// detent), and at least every `refreshNanoseconds` (the buffer and uptime move on).
/// Time comes from the caller (monotonic nanoseconds).
public struct StatusPacing: Sendable {
    public let minimumGapNanoseconds: Int64
    public let refreshNanoseconds: Int64
    private var lastPublished: Int64?
    private var changePending = true

    public init(minimumGapNanoseconds: Int64 = 100_000_000, refreshNanoseconds: Int64 = 30_000_000_000) {
        self.minimumGapNanoseconds = minimumGapNanoseconds
        self.refreshNanoseconds = refreshNanoseconds
    }

    /// Something the status shows changed.
    public mutating func changed() { changePending = true }

    /// When the next publish is due (at or before now: publish now).
    public var due: Int64 {
        guard let lastPublished else { return .min }
        return changePending ? lastPublished + minimumGapNanoseconds : lastPublished + refreshNanoseconds
    }

    /// The status was published at `now`.
    public mutating func published(at now: Int64) {
        lastPublished = now
        changePending = false
    }

    /// The broker connection was lost: the first publish after it is due at once.
    public mutating func reconnected() { lastPublished = nil }
}
