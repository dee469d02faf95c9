import DelayboxUnits

/// What `status` answers (docs/console.md): the console's `key: value` lines in this order,
/// and the one JSON object that `status --json`, `delayboxctl status --json`, the page and
/// Home Assistant read — and that the tests decode into this type.
public struct StatusAnswer: Codable, Equatable, Sendable {
    /// `playing`, `buffering`, `paused`, …: the session's state.
    public var state: String
    /// Why the stream does not play as it should (its last end or failure: a server's
    /// refusal, a recording read to its end, a stall), until a connection holds 10 s.
    public var streamProblem: String?
    public var channel: String
    /// The delay set (`delay_ms`).
    @InMilliseconds public var delay: TimeAmount
    /// The delay the jack is hearing now (ms, to 0.1).
    public var heardDelayMs: Double
    /// The longest delay that can be set now (`available_delay_ms`).
    @InMilliseconds public var availableDelay: TimeAmount
    /// 0-100.
    public var volume: Int
    public var muted: Bool
    /// Audio held ahead of playout (ms).
    public var bufferMs: Int64
    public var nowPlaying: String
    public var uptimeS: Int
    /// The channels recorded in the background, when there are ("Away, Radio").
    public var recording: String?
    /// While a delay longer than the audio held builds: how much more is recorded first (ms).
    public var buildingDelayMs: Int64?
    /// The web page's address, when the board has one: by its `.local` name, and by
    /// number (the box's first LAN address) for a phone whose browser cannot resolve that.
    public var page: String?
    public var pageByNumber: String?
    /// On a box installed from the package: the last upgrade's outcome.
    public var release: String?
    /// The station's clock against this box's (ppm, to 0.1; positive: it runs fast), as
    /// followed from arrival times; absent until two minutes of them say.
    public var stationClockPpm: Double?
    /// Whether a new release may restart the box now: `now: paused`, `now: in the
    /// update window 04:00-05:00`, or `waits: playing (…)` (docs/deploy.md).
    public var updateRestart: String?
    /// The last release put back and why (`2026-11-30 04:12 1.3 failed its check (…); 1.2
    /// was put back`): kept when later looks replace `release`.
    public var lastRollback: String?
    /// On a box installed from the package: whether it looks for a new release every night
    /// (`on`, `off`: `update daily on|off`).
    public var dailyUpdates: String?
    /// The venue group this box is in (`mqtt.group`): `group delay` and `group channel`
    /// reach every box of it.
    public var group: String?
    /// In a group: whether the wall clock is the room's to a millisecond (`within 0.04 ms of
    /// 192.168.1.10`), or why the box does not align with the room (`not aligning: …`).
    public var venueClock: String?
    /// In a group: how far the wall clock may be off the room's (ms, to 0.01), as chrony
    /// says; absent when not known.
    public var venueClockErrorMs: Double?

    enum CodingKeys: String, CodingKey {
        case state
        case streamProblem = "stream_problem"
        case channel
        case delay = "delay_ms"
        case heardDelayMs = "heard_delay_ms"
        case availableDelay = "available_delay_ms"
        case volume, muted
        case bufferMs = "buffer_ms"
        case nowPlaying = "now_playing"
        case uptimeS = "uptime_s"
        case recording
        case buildingDelayMs = "building_delay_ms"
        case page
        case pageByNumber = "page_by_number"
        case release
        case stationClockPpm = "station_clock_ppm"
        case updateRestart = "update_restart"
        case lastRollback = "last_rollback"
        case dailyUpdates = "daily_updates"
        case group
        case venueClock = "venue_clock"
        case venueClockErrorMs = "venue_clock_error_ms"
    }

    public init(
        state: String, streamProblem: String? = nil, channel: String, delay: TimeAmount, heardDelayMs: Double,
        availableDelay: TimeAmount, volume: Int, muted: Bool, bufferMs: Int64, nowPlaying: String, uptimeS: Int,
        recording: String? = nil, buildingDelayMs: Int64? = nil, page: String? = nil, pageByNumber: String? = nil,
        release: String? = nil, stationClockPpm: Double? = nil, updateRestart: String? = nil,
        lastRollback: String? = nil, dailyUpdates: String? = nil, group: String? = nil,
        venueClock: String? = nil, venueClockErrorMs: Double? = nil
    ) {
        self.state = state
        self.streamProblem = streamProblem
        self.channel = channel
        self.delay = delay
        self.heardDelayMs = heardDelayMs
        self.availableDelay = availableDelay
        self.volume = volume
        self.muted = muted
        self.bufferMs = bufferMs
        self.nowPlaying = nowPlaying
        self.uptimeS = uptimeS
        self.recording = recording
        self.buildingDelayMs = buildingDelayMs
        self.page = page
        self.pageByNumber = pageByNumber
        self.release = release
        self.stationClockPpm = stationClockPpm
        self.updateRestart = updateRestart
        self.lastRollback = lastRollback
        self.dailyUpdates = dailyUpdates
        self.group = group
        self.venueClock = venueClock
        self.venueClockErrorMs = venueClockErrorMs
    }
}
