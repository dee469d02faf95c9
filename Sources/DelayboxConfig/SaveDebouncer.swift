import DelayboxEngine

/// When to save settings: 2 s after the last change, so turning the knob writes the SD
/// card once, not once per detent; and at most 30 s after the first unsaved change, so
/// a knob that never rests is still saved. Time comes from the caller.
public struct SaveDebouncer: Sendable {
    public var quietMs: Int64
    public var maxWaitMs: Int64
    private var firstChange: Instant?
    private var lastChange: Instant?

    public init(quietMs: Int64 = 2_000, maxWaitMs: Int64 = 30_000) {
        self.quietMs = quietMs
        self.maxWaitMs = maxWaitMs
    }

    /// Something changed at `now`.
    public mutating func changed(at now: Instant) {
        if firstChange == nil { firstChange = now }
        lastChange = now
    }

    public var hasUnsavedChanges: Bool { lastChange != nil }

    /// Whether to save at `now`; if so, the changes count as saved.
    public mutating func shouldSave(at now: Instant) -> Bool {
        guard let first = firstChange, let last = lastChange else { return false }
        let quiet = now.nanoseconds - last.nanoseconds >= quietMs * Instant.nanosecondsPerMillisecond
        let overdue = now.nanoseconds - first.nanoseconds >= maxWaitMs * Instant.nanosecondsPerMillisecond
        guard quiet || overdue else { return false }
        firstChange = nil
        lastChange = nil
        return true
    }
}
