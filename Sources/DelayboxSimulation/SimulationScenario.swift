import DelayboxEngine

/// What to simulate. Times are milliseconds from the moment the box starts (and first
/// connects); the source has been live for `sourceLeadMs` before that.
public struct SimulationScenario: Sendable {
    /// Length of the session.
    public var durationMs: Int64 = 3_600_000
    /// The delay the box holds from the start (as if remembered from the last run).
    public var delayMs: Int64 = 60_000
    public var outages: [SimulatedNetwork.Outage] = []
    public var congestions: [SimulatedNetwork.Congestion] = []
    /// The DAC's clock error.
    public var driftPpm: Double = 0
    /// The station's clock error (its encoder's sound card; positive: fast).
    public var stationPpm: Double = 0
    /// The delay error is measured from this time on (ms from the start): what the
    /// station's clock is followed to once it is known.
    public var measureFromMs: Int64 = 0
    /// Network latency, and random extra latency up to `jitterMs` per packet.
    public var latencyMs: Int64 = 20
    public var jitterMs: Int64 = 0
    /// The stream client's pauses between reads, as a box on a live Icecast stream makes
    /// them; nil: every packet stamped as it arrives.
    public var readBatching: ReadBatching?
    /// Audio the server resends on every (re)connect (an HLS stream's: its three segments).
    public var burstMs: Int64 = 4_000
    /// How the station is delivered: HLS segments, path changes, a heavy tail of jitter, a
    /// variable bitrate (`SimulatedNetwork.DeliveryModel`).
    public var delivery = SimulatedNetwork.DeliveryModel()
    public var sourceLeadMs: Int64 = 10_000
    /// Packet shape: 24 ms at 48 kHz and 384 bytes is a 128 kbps stream.
    public var packetFrames = 1_152
    public var packetBytes = 384
    /// Stream events, by the stream time (ms from the box's start) they are stamped on.
    public var events: [ScheduledEvent] = []
    /// Listener pauses: at `atMs`, for `lengthMs`.
    public var pauses: [(atMs: Int64, lengthMs: Int64)] = []
    /// Listener delay changes.
    public var delayChanges: [(atMs: Int64, delayMs: Int64)] = []
    /// Packets (by index from the source's start) that are digital silence.
    public var silentPackets: [Range<Int64>] = []
    /// The DAC's period and number of periods.
    public var periodFrames = 960
    public var periods = 4
    public var engine = EngineConfiguration()
    /// Keep every output sample (for tests; about 23 MB per minute).
    public var recordOutput = false
    public var seed: UInt64 = 1

    public init() {}

    public struct ScheduledEvent: Sendable {
        public var atMs: Int64
        public var event: StreamEvent
        public init(atMs: Int64, event: StreamEvent) {
            self.atMs = atMs
            self.event = event
        }
    }
}
