/// Where one connection's packets go on the timeline: `position = base + connection timestamp`.
///
/// A placement starts at each (re)connection and at each timestamp discontinuity. It
/// first tries to match the new packets with audio already held (`SpliceMatcher`); if
/// they do not overlap, it places them by arrival time. Audio cannot arrive before it is
/// live, so every packet bounds the base from above (`live position at arrival − packet
/// end`); the tightest bound seen during the placement window is the estimate, which
/// is why an Icecast connect burst (old audio arriving at once) is placed correctly once
/// its last packet is in.
struct ConnectionPlacement {
    enum Phase {
        /// Comparing new packets with held audio; they wait in `pending`.
        case matching(SpliceMatcher)
        /// Placed by arrival time, refined until `settlesAt` (nil until the first packet).
        case timed(settlesAt: Instant?)
        /// Spliced by content; checked against the arrival times at `verifyAt`, since
        /// identical content can also come from a restarted encoder (a steady tone, silence).
        case spliced(verifyAt: Instant)
        /// Placed for good.
        case fixed
    }

    var phase = Phase.timed(settlesAt: nil)
    /// Packets waiting for the matcher's verdict, with their arrival times.
    var pending: [(packet: StreamPacket, arrival: Instant)] = []
    /// Events waiting until the base is known, with their connection timestamps.
    var pendingEvents: [(event: StreamEvent, timestamp: Int64)] = []
    /// Timeline position of connection timestamp 0, once known.
    var base: Int64?
    /// Connection timestamp of the placement's first packet.
    var firstTimestamp: Int64 = 0
    /// Sequence number of the placement's first packet in the delay line.
    var firstSequence: Int64?
    /// End of the audio held when the placement began (nil if none was held).
    var previousEnd: Int64?
    /// The tightest upper bound on `base` from arrival times so far: audio cannot arrive
    /// before it is live, so `base <= live(arrival) − timestamp − duration` for every packet.
    var timeBound: Int64?
    /// Breaks placed by the clock their tag's start gives (live when the title came, less
    /// how long ago it began), not by this connection's timestamps: refining where its
    /// audio lies does not move them.
    var placedByClock: Set<TimelineEvent> = []
    /// Connection timestamp the next packet should have, to detect discontinuities.
    var expectedTimestamp: Int64?

    /// Lowest base allowed: the placement must not start before the audio already held.
    var lowestBase: Int64 {
        guard let previousEnd else { return .min }
        return previousEnd - firstTimestamp
    }
}
