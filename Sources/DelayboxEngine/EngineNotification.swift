/// Something the engine reports to whoever drives it (log, console, mixer, LEDs).
///
/// The engine appends notifications as they happen; the owner drains them with
/// `PlaybackEngine.drainNotifications()`. Frame-accurate ones carry `outputFrame`, the
/// engine's running count of frames rendered, at which they take effect.
public enum EngineNotification: Sendable, Equatable {
    case stateChanged(from: SessionState, to: SessionState, reason: StateChangeReason)
    /// The delay that can be set now grew (or shrank) by at least the report step.
    case availableDelayChanged(milliseconds: Int64)
    /// The delay in force changed (set by the listener, jump to live, pause, re-buffering).
    case delayChanged(milliseconds: Int64, reason: DelayChangeReason)
    /// A stream event took effect at playout. `elapsedFrames`: how far playout already is
    /// past the event's position when it takes effect — 0 when playout reaches it, more
    /// when a jump (or an event placed behind playout) lands inside it, so that an ad
    /// break plays only what is left of it.
    case eventTookEffect(TimelineEvent, EventTransition, outputFrame: Int64, elapsedFrames: Int64)
    /// An event a new connection announced as the stream's state (the server resends the
    /// current title to every listener) that is not acted on as if just sent (why).
    case eventNotTriggered(StreamEvent, reason: String)
    /// Audio that the server never delivered; it plays as a gap of exactly this length.
    case audioLost(atPosition: Int64, frames: Int64)
    /// A reconnect's resent audio was matched and spliced in place.
    case spliced(overlapFrames: Int64)
    /// Audio older than the maximum delay was dropped while paused.
    case pauseExceededMaximum(droppedFrames: Int64)
    /// A packet was refused (reason says why); nothing else is affected.
    case packetRejected(String)
    /// Another attempt to reconnect failed (why); the state stays reconnecting.
    case reconnectFailed(String)
    /// The station's clock runs more than `StationClock.farOffPpm` off this box's (said
    /// once a run): its encoder's sound card, followed from here on.
    case stationClockFarOff(ppm: Double)
}

/// Why the delay in force changed.
public enum DelayChangeReason: String, Sendable, Equatable {
    case requested
    case jumpToLive
    /// Held to what can be set: above the maximum delay, below the minimum, or while
    /// paused above the audio held.
    case clampedToAvailable
    /// The delay asked for at start is below the initial buffer plus the arrival lag.
    case raisedToMinimum
    case resumedAfterPause
    case rebuffered
    case resynchronised
}

/// Running totals, for `stats` and the simulator.
public struct EngineStatistics: Sendable, Equatable {
    /// Times playout ran out of audio while connected and had to re-buffer.
    public var underruns = 0
    /// Frames of audio lost to outages (gaps on the timeline).
    public var lostFrames: Int64 = 0
    /// Frames of silence played because no audio existed at the position.
    public var silentFrames: Int64 = 0
    /// Reconnects whose resent audio was spliced in place.
    public var splices = 0
    /// Steps in a connection's arrival lag taken for a change of its path (`LagStep`).
    public var lagSteps = 0
    /// Content matches that the arrival times refuted (a restarted encoder sending
    /// identical packets); re-placed by time.
    public var falseSplices = 0
    /// Reconnects and discontinuities placed by arrival time.
    public var timedPlacements = 0
    /// Resent packets recognised and dropped.
    public var duplicatePackets = 0
    /// Reconnect attempts that failed (each lost connection starts a series).
    public var failedReconnects = 0
    /// Packets refused as malformed.
    public var rejectedPackets = 0
    /// Packets that failed to decode (played as silence).
    public var decodeErrors = 0
    /// Crossfaded jumps made to correct a delay error.
    public var resyncs = 0
    /// Single frames slipped to follow the DAC's clock (drift correction).
    public var driftSlips = 0
    /// The measured drift between the DAC and the system clock (ppm; positive: the DAC
    /// runs fast), from the slips over about a minute.
    public var driftPpm = 0.0
    /// The station's clock against this box's (ppm; positive: the station runs fast), as
    /// followed from arrival times; nil until 10 s of arrivals say (`StationClock`).
    public var stationClockPpm: Double?
    /// The standard error of `stationClockPpm` as fitted (ppm); nil while it is the rate
    /// known from before (`EngineConfiguration.knownStationPpm`) or not known at all.
    public var stationClockPpmError: Double?
    /// How far the room's boxes moved this one's live, in all (frames; positive: it plays
    /// the programme earlier than its own path said): `PlaybackEngine.moveLive`.
    public var venueShiftFrames: Int64 = 0
    /// Frames rendered in all.
    public var renderedFrames: Int64 = 0
    public init() {}
}

/// A snapshot of the engine for status displays.
public struct EngineStatus: Sendable, Equatable {
    public var state: SessionState
    /// The delay the listener set (or the engine grew by pause and re-buffering), to the
    /// millisecond below, as every delay the engine reports.
    public var delay: TimeAmount
    /// The delay that can be set now.
    public var availableDelay: TimeAmount
    /// The smallest delay that can be set now (initial buffer plus arrival lag).
    public var minimumDelay: TimeAmount
    /// The delay playout is at right now, ms: differs from `delay` only during a
    /// crossfade, while building the delay at start, or by drift until it is corrected.
    public var heardDelayMs: Double
    /// Audio held ahead of playout.
    public var bufferedAhead: TimeAmount
    /// The programme at the playout position.
    public var programme: ProgrammeState
    /// Bytes the delay buffer holds allocated.
    public var delayBufferBytes: Int
    /// Buffering for a delay longer than the audio held yet (at the start, or on a new
    /// channel): how much more must be recorded before playout starts; nil otherwise.
    public var delayToBuild: TimeAmount?
    /// Why the stream does not play as it should — its last end or failure, in words —
    /// until a connection has held 10 s; nil while it plays.
    public var streamProblem: String?
    public var statistics: EngineStatistics
}
