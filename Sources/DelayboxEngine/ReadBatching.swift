/// When the stream thread should pause before its next read, so that it wakes a few
/// times a second for a batch of packets instead of once for every TCP segment the
/// server sends (~15 a second for a 128 kbps Icecast stream; each wake-up is a fixed cost
/// on a small board).
///
/// The pauses alternate with reads that wait on the network: after a pause the first
/// read takes what the kernel queued meanwhile (its packets are stamped late, which only
/// loosens their placement bounds), and the read after that waits for the next segment,
/// so its packet is stamped on the moment it arrived. A new connection is not paused
/// until `settleMs` has passed: its placement by arrival time and a reconnect's splice
/// are decided from the arrival times of its first seconds.
public struct ReadBatching: Sendable, Equatable {
    /// The pause (ms): what the kernel queues meanwhile (at 320 kbps, 16 KB in 400 ms)
    /// fits its socket buffer and one read. It is less than half the shortest initial
    /// buffer (1 s), so playout at the smallest delay still never reaches a gap.
    public var pauseMs: Int64
    /// How long after connecting reads are never paused (ms).
    public var settleMs: Int64
    /// Whether the next pause is due (false: the next low buffer waits on the network).
    private var pauseDue = true

    public init(pauseMs: Int64 = 400, settleMs: Int64 = 10_000) {
        self.pauseMs = pauseMs
        self.settleMs = settleMs
    }

    /// After a packet was read at `now` on a connection opened at `connected`: how long
    /// to pause before the next read (ns; 0 for none). `bufferedBytes` is what the
    /// reader still holds unparsed, `packetBytes` the largest packet so far: while the
    /// next packet is surely buffered, a read costs no wake-up and nothing pauses.
    public mutating func pause(now: Instant, connected: Instant, bufferedBytes: Int, packetBytes: Int) -> Int64 {
        guard pauseMs > 0, bufferedBytes < packetBytes, now - connected >= .milliseconds(settleMs) else { return 0 }
        defer { pauseDue.toggle() }
        return pauseDue ? pauseMs * 1_000_000 : 0
    }
}
