/// Tap-to-sync: the listener taps at a moment heard on the radio (the box's delayed audio)
/// and at the same moment seen on the TV; the delay moves by the time from the first to the
/// second — up when the TV shows it after the radio said it, down when the TV was first.
/// With two inputs (`heard`, `seen`) the taps come in either order; with one (`tap`) the
/// first is the radio's and the second the TV's, so the delay can only grow. A first tap
/// left alone for `timeoutNs` is forgotten.
public struct TapSync: Sendable {
    public var timeoutNs: Int64 = 60_000_000_000
    private var heardAt: Int64?
    private var seenAt: Int64?

    public init() {}

    /// One button: a tap at `nanoseconds`, the radio's moment if none waits, else the TV's.
    /// - Returns: the delay change (ms) when it completed a pair.
    public mutating func tap(at nanoseconds: Int64) -> Int64? {
        forgetStale(at: nanoseconds)
        return heardAt == nil ? heard(at: nanoseconds) : seen(at: nanoseconds)
    }

    /// The moment heard on the radio, at `nanoseconds`.
    /// - Returns: the delay change (ms, negative: towards live) when the TV's moment waits.
    public mutating func heard(at nanoseconds: Int64) -> Int64? {
        forgetStale(at: nanoseconds)
        heardAt = nanoseconds
        return pair()
    }

    /// The same moment seen on the TV, at `nanoseconds`.
    /// - Returns: the delay change (ms, negative: towards live) when the radio's moment waits.
    public mutating func seen(at nanoseconds: Int64) -> Int64? {
        forgetStale(at: nanoseconds)
        seenAt = nanoseconds
        return pair()
    }

    /// Whether a first tap is waiting for its second.
    public var isWaiting: Bool { heardAt != nil || seenAt != nil }

    private mutating func pair() -> Int64? {
        guard let heard = heardAt, let seen = seenAt else { return nil }
        heardAt = nil
        seenAt = nil
        let nanoseconds = seen - heard
        return (nanoseconds + (nanoseconds < 0 ? -500_000 : 500_000)) / 1_000_000
    }

    private mutating func forgetStale(at nanoseconds: Int64) {
        if let heard = heardAt, nanoseconds - heard > timeoutNs { heardAt = nil }
        if let seen = seenAt, nanoseconds - seen > timeoutNs { seenAt = nil }
    }
}
