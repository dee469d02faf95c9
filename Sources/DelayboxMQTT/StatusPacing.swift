import DelayboxUnits

/// When the status is published: soon after a change, but never twice within
/// `minimumGap` (a knob turned fast is one message per gap, not one per detent), and at
/// least every `refresh` (the buffer and uptime move on). Time comes from the caller's
/// monotonic clock.
public struct StatusPacing: Sendable {
    public let minimumGap: TimeAmount
    public let refresh: TimeAmount
    private var lastPublished: Instant?
    private var changePending = true

    public init(minimumGap: TimeAmount = .milliseconds(100), refresh: TimeAmount = .seconds(30)) {
        self.minimumGap = minimumGap
        self.refresh = refresh
    }

    /// Something the status shows changed.
    public mutating func changed() { changePending = true }

    /// When the next publish is due; nil: at once (nothing published since the start or the
    /// last reconnection).
    public var due: Instant? {
        lastPublished.map { changePending ? $0 + minimumGap : $0 + refresh }
    }

    /// Whether a publish is due at `now`.
    public func isDue(at now: Instant) -> Bool { due.map { $0 <= now } ?? true }

    /// How long from `now` until a publish is due: zero when one is due now. (It was
    /// `due - now` with "at once" as Int64.min, which overflowed — a crash — whenever a due
    /// status could not be had from the playout thread in time.)
    public func wait(from now: Instant) -> TimeAmount { due.map { max(.zero, $0 - now) } ?? .zero }

    /// The status was published at `now`.
    public mutating func published(at now: Instant) {
        lastPublished = now
        changePending = false
    }

    /// The broker connection was lost: the first publish after it is due at once.
    public mutating func reconnected() { lastPublished = nil }
}
