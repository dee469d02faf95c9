/// Tap-to-sync: tap once at a moment heard on the radio (the box's delayed audio) and
/// again when the TV shows it; the delay grows by the time between the taps. A first tap
/// left alone for `timeoutNs` is forgotten.
public struct TapSync: Sendable {
    public var timeoutNs: Int64 = 60_000_000_000
    private var firstTap: Int64?

    public init() {}

    /// A tap at `nanoseconds`; returns the delay to add (ms) when it was the second.
    public mutating func tap(at nanoseconds: Int64) -> Int64? {
        guard let first = firstTap, nanoseconds - first <= timeoutNs else {
            firstTap = nanoseconds
            return nil
        }
        firstTap = nil
        return (nanoseconds - first + 500_000) / 1_000_000
    }

    /// Whether a first tap is waiting for its second.
    public var isWaiting: Bool { firstTap != nil }
}
