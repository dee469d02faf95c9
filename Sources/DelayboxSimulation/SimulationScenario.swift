import DelayboxEngine

/// What to simulate. Times are from the moment the box starts (and first connects); the
/// source has been live for `sourceLead` before that.
public struct SimulationScenario: Sendable {
    /// Length of the session.
    public var duration = TimeAmount.hours(1)
    /// The delay the box holds from the start (as if remembered from the last run).
    public var delay = TimeAmount.seconds(60)
    public var outages: [SimulatedNetwork.Outage] = []
    public var congestions: [SimulatedNetwork.Congestion] = []
    /// The DAC's clock error.
    public var driftPpm: Double = 0
    /// The station's clock error (its encoder's sound card; positive: fast).
    public var stationPpm: Double = 0
    /// The delay error is measured from this time on (since the start): what the
    /// station's clock is followed to once it is known.
    public var measureFrom = TimeAmount.zero
    /// Network latency, and random extra latency up to `jitter` per packet.
    public var latency = TimeAmount.milliseconds(20)
    public var jitter = TimeAmount.zero
    /// The stream client's pauses between reads, as a box on a live Icecast stream makes
    /// them; nil: every packet stamped as it arrives.
    public var readBatching: ReadBatching?
    /// Audio the server resends on every (re)connect (an HLS stream's: its three segments).
    public var burst = TimeAmount.seconds(4)
    /// How the station is delivered: HLS segments, path changes, a heavy tail of jitter, a
    /// variable bitrate (`SimulatedNetwork.DeliveryModel`).
    public var delivery = SimulatedNetwork.DeliveryModel()
    public var sourceLead = TimeAmount.seconds(10)
    /// Packet shape: 24 ms at 48 kHz and 384 bytes is a 128 kbps stream.
    public var packetFrames = 1_152
    public var packetBytes = 384
    /// Stream events, by the stream time (since the box's start) they are stamped on.
    public var events: [ScheduledEvent] = []
    /// Listener pauses: at `at`, for `length`.
    public var pauses: [(at: TimeAmount, length: TimeAmount)] = []
    /// Listener delay changes.
    public var delayChanges: [(at: TimeAmount, delay: TimeAmount)] = []
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
        public var at: TimeAmount
        public var event: StreamEvent
        public init(at: TimeAmount, event: StreamEvent) {
            self.at = at
            self.event = event
        }
    }
}
