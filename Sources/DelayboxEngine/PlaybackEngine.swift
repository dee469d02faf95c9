/// The playback engine: records a live stream into the delay line and plays it out at
/// the set delay, in delayed time, with stream events taking effect where they belong.
///
/// Pure logic: no C library, no threads, no clock. Every call that depends on time takes
/// `now`; the owner serialises calls (the appliance from one playout thread, the
/// simulator and tests from one thread on a manual clock). `render` is meant for a
/// playout thread that fills a lock-free ring ahead of the real-time audio thread: it
/// does not block or do I/O, but may allocate when it has something to report.
///
/// Timeline: positions are frames of the internal format (`AudioFormat`) as the station
/// counts them. Which one is "live" at a local time is `liveClock`'s: from the first packet
/// ever received at the nominal rate, then at the station's own (`StationClock`), so that
/// a delay set once holds against the live match for hours. A connection's packets are placed on it either by matching them with
/// audio already held (a reconnect's resent burst) or from their arrival times, so the
/// delay holds across reconnects and only truly lost audio becomes a gap.
public final class PlaybackEngine {
    public let configuration: EngineConfiguration

    let line = DelayLine()
    var timeline = EventTimeline()
    /// The read heads, their crossfade and slips.
    let heads: Playheads
    /// A jump waits for the crossfade under way, then goes to the newest target.
    var jumpPending: PendingJump?
    /// Fades playout out and in around pause, re-buffering and stop.
    var transportRamp: GainRamp
    /// Frames a chunk of rendering: 20 ms, each steered on its own, so that one slip a
    /// chunk follows up to 1042 ppm — the station's clock and the DAC's together — whatever
    /// the output's period (`delaybox play` to a WAV renders 100 ms at a time: in chunks of
    /// 4096 frames it followed at most 417 ppm, and a station 500 ppm fast slid 5 ms a minute).
    static let renderChunkFrames = 960

    /// Where live is when: the live line, followed to the station's clock.
    var liveClock: LiveClock
    var connection = ConnectionPhase.notStarted
    /// Why the stream last ended or failed (a server's refusal, a recording read to its
    /// end, a stall), and since when a connection has held (nil: none open); the problem
    /// is forgotten once a connection holds `ReconnectBackoff.stableConnection`.
    var streamProblem: String?
    var connectedSince: Instant?
    /// Whether the connection delivers its audio a segment at a time (HLS, DASH), and the
    /// pauses between its deliveries.
    var deliveredInSegments = false
    /// How far apart the connection's segments come, when the box fetches them itself as
    /// they are listed (`connectionOpened`); nil otherwise.
    var segmentDuration: TimeAmount?
    var cadence = SegmentCadence()
    var transport = Transport.waiting(hold: nil)
    var placement = ConnectionPlacement()
    var receivedAudio = false
    /// The delay in force, measured at the output jack.
    var delayFrames: LocalFrames
    /// Timeline position up to which events have taken effect; `.min` until playout starts,
    /// and again when it starts after another channel had the output (the mix started
    /// afresh for that one).
    var eventCursor = Int64.min
    /// Stood by for another channel: the next start restates the programme without
    /// reporting again the breaks that are long over (they were, when this one played).
    var restartsAfterStandBy = false
    /// Frames from the next rendered frame until it is audible, as last told.
    var outputDelayFrames = LocalFrames.zero
    /// The rendered frame at which playout last started (or resumed).
    var playingSinceFrame: Int64 = 0
    /// When the frame after the last rendered one is due: the end of the last render.
    var nextFrameDue = Instant.zero
    /// When the frame after the last rendered one is heard, as the last render was told;
    /// nil before the first render.
    var nextFrameHeard: Instant?
    var reportedState = SessionState.idle
    var lastReportedAvailable = TimeAmount.zero
    var notifications: [EngineNotification] = []
    public internal(set) var statistics = EngineStatistics()

    enum PendingJump: Equatable {
        /// The listener's delay change: lands exactly at the new delay.
        case delayChange
        /// Puts right a delay error; lands in phase with the audio it leaves.
        case correction
    }

    enum ConnectionPhase: Equatable {
        case notStarted, connecting, connected, reconnecting, stopped, failed
    }

    enum Transport: Equatable {
        /// Silent until enough audio is held; `hold` is where to resume, or nil to start
        /// at the position the set delay asks for.
        case waiting(hold: StationFrames?)
        case playing
        /// Held by the listener at this position; recording goes on.
        case paused(at: StationFrames)
        /// The listener resumed: playout restarts at this position with the next render
        /// (after the pause's fade-out has finished), so the delay is measured then.
        case resuming(at: StationFrames)
    }

    /// - Parameter decoderFactory: makes the decoders the two read heads use.
    public init(configuration: EngineConfiguration = EngineConfiguration(), decoderFactory: PacketDecoderFactory) throws
    {
        let problems = configuration.problems()
        guard problems.isEmpty else { throw InvalidConfiguration(problems: problems) }
        self.configuration = configuration
        let fade = configuration.fade.audioFrames
        heads = Playheads(
            decoderFactory: decoderFactory, chunkFrames: Self.renderChunkFrames, fadeFrames: fade,
            crossfadeFrames: Int(configuration.crossfade.audioFrames),
            settleFrames: Int(configuration.settleError.audioFrames))
        transportRamp = GainRamp(gain: 0, lengthFrames: fade)
        delayFrames = LocalFrames(configuration.initialDelay.audioFrames)
        liveClock = LiveClock(knownPpm: configuration.knownStationPpm)
        statistics.stationClockPpm = configuration.knownStationPpm
    }

    // MARK: Time

    /// The timeline position that is live at `now` (0 before the first packet).
    func livePosition(at now: Instant) -> StationFrames { liveClock.position(at: now) }

    /// Where playout should be at `now` for the set delay to hold at the jack.
    func targetPosition(at now: Instant) -> StationFrames { position(forDelay: delayFrames, at: now) }

    /// The timeline position heard `delay` (local time, at the jack) after it was live.
    func position(forDelay delay: LocalFrames, at now: Instant) -> StationFrames {
        livePosition(at: now) - liveClock.line.stationFrames(delay - outputDelayFrames)
    }

    /// The delay at the jack of playing `position` at `now`.
    func delay(playing position: StationFrames, at now: Instant) -> LocalFrames {
        liveClock.line.localFrames(livePosition(at: now) - position) + outputDelayFrames
    }

    /// The delay that can be set at `now`: the audio held, up to the maximum.
    func availableDelayFrames(at now: Instant) -> LocalFrames {
        guard !line.isEmpty else { return .zero }
        return min(
            LocalFrames(configuration.maxDelay.audioFrames),
            liveClock.line.localFrames(livePosition(at: now) - StationFrames(line.startPosition)))
    }

    /// The smallest delay that can be set at `now`: the initial buffer, plus how far the
    /// newest audio lags the live estimate — for a stream delivered in segments, as far as
    /// it will before the next delivery (`SegmentCadence`) — plus the output's own delay.
    func minimumDelayFrames(at now: Instant) -> LocalFrames {
        let behind = line.isEmpty ? .zero : max(.zero, livePosition(at: now) - StationFrames(line.endPosition))
        var lag = liveClock.line.localFrames(behind)
        if deliveredInSegments, let local = liveClock.local(at: now) {
            lag = max(lag, LocalFrames(cadence.allowanceFrames(atLocal: local.count)))
        }
        return min(
            LocalFrames(configuration.initialBuffer.audioFrames) + lag + outputDelayFrames,
            LocalFrames(configuration.maxDelay.audioFrames))
    }

    /// The oldest position playout may start from at `now`: audio is held, and the delay
    /// at the jack would not exceed the maximum.
    func oldestPlayablePosition(at now: Instant) -> StationFrames {
        max(
            StationFrames(line.startPosition),
            position(forDelay: LocalFrames(configuration.maxDelay.audioFrames), at: now))
    }

    /// Whether the connection's audio bounds playout: connected, with audio placed. A new
    /// connection whose first audio is still on its way (a reconnect's burst) does not:
    /// playout runs on into the gap at the set delay, as while reconnecting — its audio is
    /// placed by the live edge, so waiting for it would only raise the delay, and hold a
    /// running ad break with playout.
    var connectionFeedsPlayout: Bool { connection == .connected && placement.base != nil }

    /// Where playout is (or will resume), on the timeline.
    func playoutPosition(at now: Instant) -> StationFrames {
        switch transport {
        case .playing: StationFrames(heads.position)
        case .paused(let position), .resuming(let position): position
        case .waiting(let hold): hold ?? targetPosition(at: now)
        }
    }

    // MARK: State

    var derivedState: SessionState {
        switch connection {
        case .notStarted: return .idle
        case .stopped: return .stopped
        case .failed: return .failed
        case .connecting: return .connecting
        case .reconnecting:
            if case .paused = transport { return .paused }
            return .reconnecting
        case .connected:
            switch transport {
            case .playing, .resuming: return .playing
            case .paused: return .paused
            case .waiting: return receivedAudio ? .buffering : .connecting
            }
        }
    }

    /// Reports a state change, if the derived state changed.
    func updateState(_ reason: StateChangeReason) {
        let state = derivedState
        guard state != reportedState else { return }
        notifications.append(.stateChanged(from: reportedState, to: state, reason: reason))
        reportedState = state
    }

    // MARK: Observation

    /// Takes the notifications collected since the last call.
    public func drainNotifications() -> [EngineNotification] {
        defer { notifications.removeAll(keepingCapacity: true) }
        return notifications
    }

    /// A snapshot for status displays.
    public func status(at now: Instant) -> EngineStatus {
        let position = playoutPosition(at: now)
        return EngineStatus(
            state: derivedState,
            delay: .wholeMilliseconds(frames: delayFrames.count),
            availableDelay: .wholeMilliseconds(frames: availableDelayFrames(at: now).count),
            minimumDelay: .wholeMilliseconds(frames: minimumDelayFrames(at: now).count),
            heardDelayMs: AudioFormat.exactMilliseconds(frames: delay(playing: position, at: nextFrameDue).count),
            bufferedAhead: line.isEmpty ? .zero : .wholeMilliseconds(frames: max(0, line.endPosition - position.count)),
            programme: timeline.state(at: position.count),
            delayBufferBytes: line.allocatedBytes,
            delayToBuild: delayToBuildFrames(at: now).map { .wholeMilliseconds(frames: $0.count) },
            streamProblem: streamProblem(at: now),
            statistics: statistics)
    }

    /// Why the stream does not play as it should, until a connection has held long enough
    /// to be a station's (a recording's ends come sooner): for the page and `status`.
    private func streamProblem(at now: Instant) -> String? {
        guard let streamProblem else { return nil }
        guard let connectedSince, now - connectedSince >= ReconnectBackoff.stableConnection else {
            return streamProblem
        }
        return nil
    }

    /// While waiting to start at the set delay: how far back of the oldest audio that may
    /// be played the delay's start position still lies (local time), if it does.
    private func delayToBuildFrames(at now: Instant) -> LocalFrames? {
        guard case .waiting(nil) = transport, receivedAudio, !line.isEmpty else { return nil }
        let start = position(forDelay: max(delayFrames, minimumDelayFrames(at: now)), at: now)
        let missing = oldestPlayablePosition(at: now) - start
        return missing > .zero ? liveClock.line.localFrames(missing) : nil
    }

}

extension PlaybackEngine {
    /// The session state, cheap enough to read after every render.
    public var state: SessionState { derivedState }
    /// Whether playout moves along the timeline, and the programme (an ad break, mute
    /// music) with it: while playing, and while reconnecting on the audio held — not
    /// while waiting for audio, paused or stopped.
    public var isPlayingOut: Bool {
        guard connection == .connected || connection == .reconnecting else { return false }
        switch transport {
        case .playing, .resuming: return true
        case .waiting, .paused: return false
        }
    }
    /// The delay in force, in frames at the jack.
    public var delayInFrames: Int64 { delayFrames.count }
    /// Frames rendered so far: the frame numbering of `outputFrame` in notifications.
    public var renderedFrames: Int64 { statistics.renderedFrames }
    /// Notifications not yet drained, for a reader that must act on them before the
    /// owner drains them (the programme mix, within the render they belong to).
    public var pendingNotifications: [EngineNotification] { notifications }
    /// The events held on the timeline (those already played and those to come), in
    /// order: what is coming lets the owner fetch an ad's audio before its break.
    public var heldEvents: [TimelineEvent] { timeline.events }
}
