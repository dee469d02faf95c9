/// What `stats` answers (docs/console.md): the console's `key: value` lines in this order,
/// and the JSON object of `stats --json` — what the tests and the benchmark decode.
public struct StatsAnswer: Codable, Equatable, Sendable {
    /// Audio held ahead of playout (ms).
    public var bufferMs: Int64
    /// The heard delay minus the set one (ms, to 0.1).
    public var delayErrorMs: Double
    public var underruns: Int
    public var reconnectsFailed: Int
    public var splices: Int
    /// Audio the stream never delivered, played as silence (ms).
    public var lostMs: Int64
    /// Crossfaded jumps that corrected the delay.
    public var resyncs: Int
    /// The output's clock against the system's (ppm, to 0.1).
    public var driftPpm: Double
    public var driftSlips: Int
    public var delayBufferBytes: Int
    public var xruns: Int
    public var lateRenders: Int
    public var deviceLosses: Int
    /// The audio and playout threads' scheduling: `fifo 50`, `fifo 40`, or `normal` where
    /// real-time priority was not permitted (not root, no RLIMIT_RTPRIO).
    public var audioThread: String
    public var playoutThread: String
    /// Controls touched since the start whose sound was timed to the jack.
    public var knobToClickCount: Int
    /// This process's CPU time so far (s, to 0.01).
    public var cpuS: Double
    /// Its resident memory (MB, to 0.1).
    public var rssMb: Double
    /// A control's touch to its sound at the jack, over the latest (ms): 95th percentile,
    /// median, largest; none before the first.
    public var knobToClickMs: Double?
    public var knobToClickP50Ms: Double?
    public var knobToClickMaxMs: Double?
    /// The station's clock against this box's (ppm, to 0.1), once known (`status` too).
    public var stationClockPpm: Double?
    /// How far the room's boxes (an MQTT group) moved this one's live (ms, to 0.1; positive:
    /// it plays earlier than its own path said); absent outside a group's room.
    public var venueShiftMs: Double?

    enum CodingKeys: String, CodingKey {
        case bufferMs = "buffer_ms"
        case delayErrorMs = "delay_error_ms"
        case underruns
        case reconnectsFailed = "reconnects_failed"
        case splices
        case lostMs = "lost_ms"
        case resyncs
        case driftPpm = "drift_ppm"
        case driftSlips = "drift_slips"
        case delayBufferBytes = "delay_buffer_bytes"
        case xruns
        case lateRenders = "late_renders"
        case deviceLosses = "device_losses"
        case audioThread = "audio_thread"
        case playoutThread = "playout_thread"
        case knobToClickCount = "knob_to_click_count"
        case cpuS = "cpu_s"
        case rssMb = "rss_mb"
        case knobToClickMs = "knob_to_click_ms"
        case knobToClickP50Ms = "knob_to_click_p50_ms"
        case knobToClickMaxMs = "knob_to_click_max_ms"
        case stationClockPpm = "station_clock_ppm"
        case venueShiftMs = "venue_shift_ms"
    }

    public init(
        bufferMs: Int64, delayErrorMs: Double, underruns: Int, reconnectsFailed: Int, splices: Int, lostMs: Int64,
        resyncs: Int, driftPpm: Double, driftSlips: Int, delayBufferBytes: Int, xruns: Int, lateRenders: Int,
        deviceLosses: Int, audioThread: String, playoutThread: String, knobToClickCount: Int, cpuS: Double,
        rssMb: Double, knobToClickMs: Double? = nil, knobToClickP50Ms: Double? = nil, knobToClickMaxMs: Double? = nil,
        stationClockPpm: Double? = nil, venueShiftMs: Double? = nil
    ) {
        self.bufferMs = bufferMs
        self.delayErrorMs = delayErrorMs
        self.underruns = underruns
        self.reconnectsFailed = reconnectsFailed
        self.splices = splices
        self.lostMs = lostMs
        self.resyncs = resyncs
        self.driftPpm = driftPpm
        self.driftSlips = driftSlips
        self.delayBufferBytes = delayBufferBytes
        self.xruns = xruns
        self.lateRenders = lateRenders
        self.deviceLosses = deviceLosses
        self.audioThread = audioThread
        self.playoutThread = playoutThread
        self.knobToClickCount = knobToClickCount
        self.cpuS = cpuS
        self.rssMb = rssMb
        self.knobToClickMs = knobToClickMs
        self.knobToClickP50Ms = knobToClickP50Ms
        self.knobToClickMaxMs = knobToClickMaxMs
        self.stationClockPpm = stationClockPpm
        self.venueShiftMs = venueShiftMs
    }
}
