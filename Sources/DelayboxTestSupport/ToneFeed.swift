import DelayboxEngine
import DelayboxSimulation

/// Feeds an engine a live test-tone stream by hand, for tests that script the network
/// themselves: packet k of the source holds stream frames k·P ..< (k+1)·P.
public struct ToneFeed {
    public let packetFrames: Int
    public let packetBytes: Int
    /// First packet index of the current connection (its connection timestamp is 0).
    public var connectionFirstPacket: Int64 = 0
    /// Packets that are digital silence (identical bytes, like an encoder's silence).
    public var silentPackets: Range<Int64> = 0..<0
    /// Packets sent with another packet's content (source index → index whose bytes to
    /// send), as a restarted encoder can repeat identical frames.
    public var contentAliases: [Int64: Int64] = [:]

    public init(packetFrames: Int = 960, packetBytes: Int = 320) {
        self.packetFrames = packetFrames
        self.packetBytes = packetBytes
    }

    /// The packet with source index `index`, stamped for the current connection.
    public func packet(_ index: Int64) -> StreamPacket {
        StreamPacket(
            payload: ToneCodec.packet(
                firstFrame: (contentAliases[index] ?? index) * Int64(packetFrames), frames: packetFrames,
                bytes: packetBytes,
                silent: silentPackets.contains(index)),
            connectionTimestamp: (index - connectionFirstPacket) * Int64(packetFrames),
            durationFrames: packetFrames)
    }

    /// Source time at which packet `index` is complete (live).
    public func liveTime(of index: Int64) -> Instant {
        Instant.zero.advanced(byFrames: (index + 1) * Int64(packetFrames))
    }

    /// Delivers packets `range` to `engine`, each at its live time (or at `time` if given,
    /// as a burst).
    public func deliver(_ range: Range<Int64>, to engine: PlaybackEngine, at time: Instant? = nil) {
        for index in range { engine.ingest(packet(index), now: time ?? liveTime(of: index)) }
    }
}
