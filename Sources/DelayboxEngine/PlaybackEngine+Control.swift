extension PlaybackEngine {
    /// Starts the session: the stream client is about to connect.
    public func start(now: Instant) {
        guard connection == .notStarted else { return }
        connection = .connecting
        updateState(.startRequested)
    }

    /// The stream client opened a connection; the packets that follow are placed anew.
    /// `segmented`: it delivers its audio a segment at a time (HLS, DASH); nil: as before.
    /// `segmentDuration`: how far apart its deliveries come, when known before the first
    /// pause (the box fetches an HLS playlist's segments itself as they are listed).
    public func connectionOpened(now: Instant, segmented: Bool? = nil, segmentDuration: TimeAmount? = nil) {
        let wasReconnecting = connection == .reconnecting
        guard connection != .stopped, connection != .failed else { return }
        if let segmented { deliveredInSegments = segmented }
        cadence.connectionOpened(expectingPauseFrames: segmentDuration?.audioFrames)
        self.segmentDuration = segmentDuration
        connection = .connected
        connectedSince = now
        beginPlacement(now: now)
        updateState(wasReconnecting ? .reconnected : .startRequested)
    }

    /// The connection ended (EOF, error, stall); buffered audio keeps playing.
    public func connectionLost(reason: String, now: Instant) {
        (streamProblem, connectedSince) = (reason, nil)
        if connection == .reconnecting {
            statistics.failedReconnects += 1
            notifications.append(.reconnectFailed(reason))
        }
        guard connection == .connected || connection == .connecting else { return }
        if isMatching { beginPlacement(now: now) }  // resolves what is pending
        connection = .reconnecting
        updateState(.connectionLost(reason))
    }

    /// The stream cannot be played (retrying will not help).
    public func fail(reason: String, now: Instant) {
        (streamProblem, connectedSince) = (reason, nil)
        connection = .failed
        enterWaiting(hold: nil, reason: .failure(reason))
    }

    /// Stops the session; playout fades out. The connection being placed is placed now:
    /// the audio it lost is reported before the session's last words, not never.
    public func stop(now: Instant) {
        decidePendingPlacement(now: now)
        settlePlacement()
        connection = .stopped
        enterWaiting(hold: nil, reason: .stopRequested)
    }

    /// Another channel takes the output: playout fades out, recording goes on. Until the
    /// engine plays again, `maintain(now:)` keeps its buffer within the maximum delay; its
    /// next render starts at the delay set then, at once when that much is held.
    public func standBy(now: Instant) {
        enterWaiting(hold: nil, reason: .standingBy)
        // The programme mix forgets this channel's state (its mute, its break) when another
        // takes the output: coming back, every event held takes effect again from scratch,
        // not only those after where playout left it (issue 44: the mute was lost).
        restartsAfterStandBy = true
    }

    /// For an engine that records without playing (a channel kept in the background):
    /// settles the connection's placement and drops audio beyond the maximum delay, as
    /// each render does.
    public func maintain(now: Instant) {
        housekeeping(now: now)
    }

    /// Holds playout where it is; recording goes on, so the delay grows by the pause.
    public func pause(now: Instant) {
        switch transport {
        case .paused: return
        case .playing: transport = .paused(at: StationFrames(heads.position))
        case .resuming(let position): transport = .paused(at: position)
        case .waiting(let hold): transport = .paused(at: hold ?? targetPosition(at: now))
        }
        transportRamp.fade(to: 0)
        updateState(.pauseRequested)
    }

    /// Continues from the exact sample where playout was paused. Paused while a delay was
    /// building (nothing played yet, the place it was to start from not held yet), it builds
    /// on towards that delay grown by the pause, as a time-shift does (issue 44: it started
    /// at once from whatever was held, the target the settings named abandoned).
    public func resume(now: Instant) {
        guard case .paused(let position) = transport else { return }
        if line.isEmpty || position < StationFrames(line.startPosition) {
            let maximum = LocalFrames(configuration.maxDelay.audioFrames)
            delayFrames = min(delay(playing: position, at: now), maximum)
            transport = .waiting(hold: nil)
            notifications.append(
                .delayChanged(
                    milliseconds: AudioFormat.milliseconds(frames: delayFrames.count), reason: .resumedAfterPause))
        } else {
            transport = .resuming(at: position)
        }
        updateState(.resumeRequested)
    }

    /// Sets the delay; the change is crossfaded. A delay longer than the audio held (up to
    /// the maximum) is reached by waiting: playout stops with a fade — recording goes on —
    /// and starts again at that delay once the audio that far back is there, as at the
    /// first start (`EngineStatus.delayToBuild` says how long that is). While paused, the
    /// delay is clamped to what is held.
    /// - Returns: the delay set, to the millisecond below.
    @discardableResult
    public func setDelay(_ delay: TimeAmount, now: Instant) -> TimeAmount {
        applyDelay(LocalFrames(delay.audioFrames), reason: .requested, now: now)
    }

    /// Sets the smallest delay possible.
    @discardableResult
    public func jumpToLive(now: Instant) -> TimeAmount {
        applyDelay(minimumDelayFrames(at: now), reason: .jumpToLive, now: now)
    }

    private func applyDelay(_ requested: LocalFrames, reason: DelayChangeReason, now: Instant) -> TimeAmount {
        let minimum = minimumDelayFrames(at: now)
        let available = max(minimum, availableDelayFrames(at: now))
        let paused = if case .paused = transport { true } else { false }
        let maximum = paused ? available : max(minimum, LocalFrames(configuration.maxDelay.audioFrames))
        let frames = min(max(requested, minimum), maximum)
        delayFrames = frames
        let milliseconds = AudioFormat.milliseconds(frames: frames.count)
        notifications.append(
            .delayChanged(milliseconds: milliseconds, reason: frames == requested ? reason : .clampedToAvailable))
        switch transport {
        case .playing where frames > available: enterWaiting(hold: nil, reason: .buildingDelay)
        case .playing: jumpPending = .delayChange
        case .waiting, .resuming: transport = .waiting(hold: nil)
        case .paused: transport = .paused(at: targetPosition(at: now))
        }
        return .milliseconds(milliseconds)
    }
}
