import DelayboxUnits

/// Tap-to-sync: the listener taps at a moment heard on the radio (the box's delayed audio)
/// and at the same moment seen on the TV; the delay moves by the time from the first to the
/// second — up when the TV shows it after the radio said it, down when the TV was first.
/// With two inputs (`heard`, `seen`) the taps come in either order; with one (`tap`) the
/// first is the radio's and the second the TV's, so the delay can only grow. A first tap
/// left alone for `timeout` is forgotten.
public struct TapSync: Sendable {
    public var timeout: TimeAmount = .seconds(60)
    private var heardAt: Instant?
    private var seenAt: Instant?

    public init() {}

    /// One button: a tap at `time`, the radio's moment if none waits, else the TV's.
    /// - Returns: the delay change (ms, what the command carries) when it completed a pair.
    public mutating func tap(at time: Instant) -> Int64? {
        forgetStale(at: time)
        return heardAt == nil ? heard(at: time) : seen(at: time)
    }

    /// The moment heard on the radio, at `time`.
    /// - Returns: the delay change (ms, negative: towards live) when the TV's moment waits.
    public mutating func heard(at time: Instant) -> Int64? {
        forgetStale(at: time)
        heardAt = time
        return pair()
    }

    /// The same moment seen on the TV, at `time`.
    /// - Returns: the delay change (ms, negative: towards live) when the radio's moment waits.
    public mutating func seen(at time: Instant) -> Int64? {
        forgetStale(at: time)
        seenAt = time
        return pair()
    }

    /// Whether a first tap is waiting for its second.
    public var isWaiting: Bool { heardAt != nil || seenAt != nil }

    private mutating func pair() -> Int64? {
        guard let heard = heardAt, let seen = seenAt else { return nil }
        heardAt = nil
        seenAt = nil
        return (seen - heard).roundedMilliseconds
    }

    private mutating func forgetStale(at time: Instant) {
        if let heard = heardAt, time - heard > timeout { heardAt = nil }
        if let seen = seenAt, time - seen > timeout { seenAt = nil }
    }
}
