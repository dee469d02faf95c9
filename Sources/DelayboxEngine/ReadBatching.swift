/// When the stream thread should pause before its next read, so that it wakes a few
/// times a second for a batch of packets instead of once for every TCP segment the
/// server sends (~15 a second for a 128 kbps Icecast stream; each wake-up is a fixed cost
/// on a small board).
///
/// The pauses alternate with reads that wait on the network: after a pause the first
/// read takes what the kernel queued meanwhile (its packets are stamped late, which only
/// loosens their placement bounds), and the read after that waits for the next segment,
/// so its packet is stamped on the moment it arrived. A new connection is not paused
/// until `settle` has passed: its placement by arrival time and a reconnect's splice
/// are decided from the arrival times of its first seconds, and the station's rate from
/// those of its first two minutes. A second of batched reads has two stamps on the moment
/// where one read as the bytes come has fifteen: their least lag lies higher and scatters
/// more. Fitted through the step from one to the other at the tenth second, a station on
/// time read as −400 ppm on a loopback Icecast (issue 67); the station's clock now gives
/// each its own intercept (`StreamPacket.readBeforeBatching`), and the rate is locked from
/// the finer stamps before the coarser ones begin.
///
/// A pause's length varies at random, ±25 %: the reads that wait on the network are the
/// station clock's samples (`StationClock`), and a source that sends in chunks of a fixed
/// period, sampled at a fixed period, is seen at a phase that drifts slowly — a beat, by
/// which the least lag of each second wandered by milliseconds over minutes on a loopback
/// Icecast, and the station's rate was fitted hundreds of ppm off (issue 67).
public struct ReadBatching: Sendable, Equatable {
    /// The pause: what the kernel queues meanwhile (at 320 kbps, 16 KB in 400 ms) fits its
    /// socket buffer and one read. It is less than half the shortest initial buffer (1 s),
    /// so playout at the smallest delay still never reaches a gap. Zero: reads never pause.
    public var pause: TimeAmount
    /// How long after connecting reads are never paused.
    public var settle: TimeAmount
    /// Whether the next pause is due (false: the next low buffer waits on the network).
    private var pauseDue = true
    /// The pauses' random state (a 64-bit LCG: no cryptography, only no fixed period).
    private var random: UInt64

    public init(
        pause: TimeAmount = .milliseconds(400), settle: TimeAmount = .minutes(2), seed: UInt64 = 0x9e37_79b9_7f4a_7c15
    ) {
        self.pause = pause
        self.settle = settle
        random = seed
    }

    /// The next pause (ns): `pause` ± 25 %, at random.
    public mutating func nextPause() -> Int64 {
        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let unit = Double(random >> 11) / Double(UInt64(1) << 53)
        return Int64(Double(pause.nanoseconds) * (0.75 + 0.5 * unit))
    }

    /// Whether a packet read at `now` comes before reads are batched on a connection that
    /// will batch them: stamped more finely than the connection's later packets.
    public func isBeforeBatching(now: Instant, connected: Instant) -> Bool {
        pause > .zero && now - connected < settle
    }

    /// After a packet was read at `now` on a connection opened at `connected`: how long
    /// to pause before the next read (ns; 0 for none). `bufferedBytes` is what the
    /// reader still holds unparsed, `packetBytes` the largest packet so far: while the
    /// next packet is surely buffered, a read costs no wake-up and nothing pauses.
    public mutating func pause(now: Instant, connected: Instant, bufferedBytes: Int, packetBytes: Int) -> Int64 {
        guard pause > .zero, bufferedBytes < packetBytes, !isBeforeBatching(now: now, connected: connected) else {
            return 0
        }
        defer { pauseDue.toggle() }
        return pauseDue ? nextPause() : 0
    }
}
