import DelayboxEngine

/// When to save settings: 2 s after the last change, so turning the knob writes the SD
/// card once, not once per detent; and at most 30 s after the first unsaved change, so
/// a knob that never rests is still saved. Time comes from the caller.
public struct SaveDebouncer: Sendable {
    public var quiet: TimeAmount
    public var maxWait: TimeAmount
    private var firstChange: Instant?
    private var lastChange: Instant?

    public init(quiet: TimeAmount = .seconds(2), maxWait: TimeAmount = .seconds(30)) {
        self.quiet = quiet
        self.maxWait = maxWait
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
        guard now - last >= quiet || now - first >= maxWait else { return false }
        firstChange = nil
        lastChange = nil
        return true
    }
}
