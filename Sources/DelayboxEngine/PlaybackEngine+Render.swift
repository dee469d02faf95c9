extension PlaybackEngine {
    /// Renders the next `out.count / 2` frames of programme audio.
    /// - Parameters:
    ///   - now: when the first frame is rendered.
    ///   - outputDelayFrames: frames from the first rendered frame until it is audible
    ///     (the output driver's delay); the engine compensates it, so the set delay
    ///     holds at the jack.
    public func render(into out: UnsafeMutableBufferPointer<Float>, now: Instant, outputDelayFrames: Int) {
        self.outputDelayFrames = LocalFrames(Int64(outputDelayFrames))
        housekeeping(now: now)
        let channels = AudioFormat.channelCount
        let total = out.count / channels
        noteOutputTimeline(firstFrameHeard: now.advanced(byFrames: Int64(outputDelayFrames)), frames: total)
        var done = 0
        while done < total {
            let frames = min(total - done, Self.renderChunkFrames)
            renderChunk(
                into: out.baseAddress! + done * channels, frames: frames, now: now.advanced(byFrames: Int64(done)))
            done += frames
        }
        nextFrameDue = now.advanced(byFrames: Int64(total))
    }

    private func renderChunk(into out: UnsafeMutablePointer<Float>, frames: Int, now: Instant) {
        if transportRamp.gain == 0 {
            if case .waiting(let hold) = transport { startPlayout(from: hold, resumed: false, now: now) }
            if case .resuming(let position) = transport { startPlayout(from: position, resumed: true, now: now) }
        }
        if transport == .playing { steer(frames: frames, now: now) }
        if transport == .playing || transportRamp.gain > 0 {
            renderHeads(into: out, frames: frames)
            transportRamp.apply(to: out, frames: frames)
        } else {
            out.update(repeating: 0, count: frames * AudioFormat.channelCount)
        }
        statistics.renderedFrames += Int64(frames)
    }

    /// Before a chunk: re-buffer when playout would reach the newest audio, carry out a
    /// pending delay change, or correct a delay error beyond the threshold.
    private func steer(frames: Int, now: Instant) {
        let needed = Int64(frames) + configuration.fade.audioFrames
        if connection == .connected, !heads.isCrossfading, line.endPosition - heads.position < needed {
            // The new connection's audio may be waiting for the splice matcher's verdict:
            // playout needs it now, so the verdict cannot wait.
            decidePendingPlacement(now: now)
            if connectionFeedsPlayout, line.endPosition - heads.position < needed {
                statistics.underruns += 1
                enterWaiting(hold: StationFrames(heads.position), reason: .reachedLiveEdge)
                return
            }
        }
        guard !heads.isCrossfading else { return }
        let error = heads.position - targetPosition(at: now).count
        if let pending = jumpPending {
            jump(to: targetPosition(at: now), aligned: pending == .correction)
        } else if abs(error) > resyncThreshold.audioFrames {
            statistics.resyncs += 1
            jump(to: targetPosition(at: now), aligned: true)
        } else {
            heads.steer(error: error, frames: frames)
            // The slips follow the DAC and the station together; the DAC's share is told.
            statistics.driftPpm = heads.driftPpm + (statistics.stationClockPpm ?? 0)
        }
    }

    /// Starts playout when enough audio is held at the position to start from: `hold`
    /// (after re-buffering or a pause), or nil for the position the set delay asks for.
    private func startPlayout(from hold: StationFrames?, resumed: Bool, now: Instant) {
        guard connection == .connected || connection == .reconnecting, !line.isEmpty else { return }
        // A stream delivered in segments starts once the pause between two deliveries is
        // known: a delay shorter than it would stop at every segment (`SegmentCadence`) —
        // or once it has flowed a while without one.
        if deliveredInSegments, cadence.longestPauseFrames == nil, hold == nil, connection == .connected,
            let connectedSince, now - connectedSince < SegmentCadence.firstPauseWait
        {
            return
        }
        // A delay below what the buffer and the arrival lag allow could never fill.
        let delay = max(delayFrames, minimumDelayFrames(at: now))
        var position = hold ?? self.position(forDelay: delay, at: now)
        let oldest = oldestPlayablePosition(at: now)
        if position < oldest {
            guard hold != nil else { return }
            position = oldest
        }
        let initialBuffer = liveClock.line.stationFrames(LocalFrames(configuration.initialBuffer.audioFrames))
        guard StationFrames(line.endPosition) - position >= initialBuffer else {
            if resumed { enterWaiting(hold: position, reason: .reachedLiveEdge) }
            return
        }
        // Stopped at a segment's end: resumed once the delay holds until the next delivery,
        // so that it stops once, not at every segment while creeping up.
        if deliveredInSegments, hold != nil, !resumed,
            self.delay(playing: position, at: now) < minimumDelayFrames(at: now)
        {
            return
        }
        heads.seek(to: position.count)
        if hold == nil {
            if delay != delayFrames {
                delayFrames = delay
                notifications.append(
                    .delayChanged(milliseconds: AudioFormat.milliseconds(frames: delay.count), reason: .raisedToMinimum)
                )
            }
            // (Only now: the fade-out after `standBy` moved the cursor on.)
            if restartsAfterStandBy { eventCursor = .min }
            emitTransitions(to: position.count)
        } else {
            delayFrames = self.delay(playing: position, at: now)
            let reason: DelayChangeReason = resumed ? .resumedAfterPause : .rebuffered
            notifications.append(
                .delayChanged(milliseconds: AudioFormat.milliseconds(frames: delayFrames.count), reason: reason))
        }
        transport = .playing
        playingSinceFrame = statistics.renderedFrames
        transportRamp.fade(to: 1)
        updateState(resumed ? .resumeRequested : .bufferFilled)
    }

    /// Stops playout with a fade; it resumes from `hold` (nil: from the set delay).
    func enterWaiting(hold: StationFrames?, reason: StateChangeReason) {
        transport = .waiting(hold: hold)
        transportRamp.fade(to: 0)
        updateState(reason)
    }

    /// The output lost time when this render's first frame is heard later than the last
    /// render's end (by more than the measurement's own wobble): it played silence while
    /// playout was late, or recovered from an underrun. That gap was heard already, so the
    /// audio it displaced is skipped with one crossfade, as at a start — not slipped back
    /// at 1 ms a second, which left the box tens of ms off its delay for half a minute.
    private func noteOutputTimeline(firstFrameHeard heard: Instant, frames: Int) {
        if transport == .playing, let expected = nextFrameHeard,
            heard.frames(since: expected) > configuration.placementError.audioFrames / 2
        {
            playingSinceFrame = statistics.renderedFrames
        }
        nextFrameHeard = heard.advanced(byFrames: Int64(frames))
    }

    /// The error beyond which steering jumps instead of slipping: in playout's first
    /// second (and the second after the output lost time) the settled placement's bound —
    /// an output still settling its delay when playout begins (a restart resumes at once,
    /// before the output has run a period) is put right with one crossfade, not seconds of
    /// slips (at 10 ms, a restart's 5.7 ms was slipped away over 5 s: issue 67) — then
    /// the resync threshold.
    private var resyncThreshold: TimeAmount {
        statistics.renderedFrames - playingSinceFrame < Int64(AudioFormat.sampleRate)
            ? configuration.settleError : configuration.resyncThreshold
    }

    /// Crossfades from the current head to a head at `position`; an `aligned` jump lands
    /// up to the settle error away, in phase with the audio it leaves (`JumpAlignment`),
    /// and the drift corrector takes that lag from there.
    func jump(to position: StationFrames, aligned: Bool) {
        jumpPending = nil
        emitTransitions(to: heads.jump(to: position.count, aligned: aligned, line: line))
    }

    /// Reports the events a jump from the event cursor to `position` executes or undoes,
    /// and moves the ad break in force with playout: its end is a place in the programme,
    /// so a jump inside it, or out past its end, moves where it ends (issue 44).
    private func emitTransitions(to position: Int64) {
        let frame = statistics.renderedFrames
        func moved(_ inside: ProgrammeState.ActiveAd) {
            notifications.append(
                .eventTookEffect(
                    TimelineEvent(event: .adBreak(inside.ad), position: inside.startPosition), .movedByJump,
                    outputFrame: frame, elapsedFrames: position - inside.startPosition))
        }
        let quiet = restartsAfterStandBy
        restartsAfterStandBy = false
        if position > eventCursor {
            if eventCursor != .min, let inside = timeline.state(at: eventCursor - 1).activeAd { moved(inside) }
            if eventCursor == .min { restateFolded(at: position, frame: frame) }
            // A break that is over at the new position is not part of the programme there;
            // one the jump lands in plays on from there, to its end.
            for event in timeline.events(in: eventCursor..<position) {
                if event.hasEnded(by: position) {
                    if !quiet { notifications.append(.eventNotTriggered(event.event, reason: "over where playout is")) }
                } else {
                    notifications.append(
                        .eventTookEffect(
                            event, .executedByJump, outputFrame: frame,
                            elapsedFrames: position - event.position))
                }
            }
        } else if position < eventCursor {
            for event in timeline.events(in: position..<eventCursor).reversed() {
                notifications.append(.eventTookEffect(event, .undoneByJump, outputFrame: frame, elapsedFrames: 0))
            }
            // Back into a break (the one playing, or one heard before): it plays from there
            // to its end, as the programme had it (docs/stream-events.md).
            if let inside = timeline.state(at: position - 1).activeAd { moved(inside) }
        }
        eventCursor = position
    }

    /// At a start from scratch: what the events older than the audio held left in force —
    /// a mute that began before it, a break still running — takes effect (a channel
    /// recorded in the background for longer than the longest delay had its mute folded
    /// away and never said).
    private func restateFolded(at position: Int64, frame: Int64) {
        let folded = timeline.folded.seen(from: position)
        let oldest = line.isEmpty ? position : line.startPosition
        if folded.streamerMuted {
            notifications.append(
                .eventTookEffect(
                    TimelineEvent(event: .streamerMuted, position: oldest), .executedByJump,
                    outputFrame: frame, elapsedFrames: 0))
        }
        if let inside = folded.activeAd {
            notifications.append(
                .eventTookEffect(
                    TimelineEvent(event: .adBreak(inside.ad), position: inside.startPosition), .executedByJump,
                    outputFrame: frame, elapsedFrames: position - inside.startPosition))
        }
    }

    private func renderHeads(into out: UnsafeMutablePointer<Float>, frames: Int) {
        let start = heads.position
        let rendered = heads.render(into: out, frames: frames, line: line, advanceBeyondData: !connectionFeedsPlayout)
        if rendered.slipped { statistics.driftSlips += 1 }
        if transport == .playing { statistics.silentFrames += Int64(rendered.silentFrames) }
        statistics.decodeErrors += rendered.decodeErrors
        fireEvents(from: start, to: heads.position)
    }

    /// Reports the events playout passed in `start..<end`, at their exact output frame.
    private func fireEvents(from start: Int64, to end: Int64) {
        let from = max(start, eventCursor)
        guard end > from else { return }
        for event in timeline.events(in: from..<end) {
            let frame = statistics.renderedFrames + max(0, event.position - start)
            notifications.append(.eventTookEffect(event, .reached, outputFrame: frame, elapsedFrames: 0))
        }
        eventCursor = end
    }

    /// A placement by arrival time sharpens while its window is open: the first packets
    /// (a server's burst, read through FFmpeg in 1 KB chunks) can place the live edge tens
    /// of ms late, and later packets that arrive on time move it. Playout started on the
    /// early estimate; an error beyond `placementError` while the window is open, and
    /// beyond `settleError` when it closes, is put right at once with a crossfaded jump
    /// instead of minutes of frame slips.
    private func correctPlacementError(beyond limit: TimeAmount, now: Instant) {
        guard transport == .playing, !heads.isCrossfading, jumpPending == nil else { return }
        let error = heads.position - targetPosition(at: now).count
        guard abs(error) > limit.audioFrames else { return }
        statistics.resyncs += 1
        jumpPending = .correction
    }

    /// Lets time pass to `now` without rendering, as while replaying what a journal kept
    /// (`DelayJournal`): the placement settles when it did then, not on every packet since.
    public func passTime(to now: Instant) { housekeeping(now: now) }

    /// Once per render: settle the placement, drop audio beyond the maximum delay, and
    /// report the available delay.
    func housekeeping(now: Instant) {
        switch placement.phase {
        case .timed(let settlesAt?) where now >= settlesAt:
            settlePlacement()
            correctPlacementError(beyond: configuration.settleError, now: now)
        case .timed(_?):
            correctPlacementError(beyond: configuration.placementError, now: now)
        case .spliced(let verifyAt) where now >= verifyAt: settlePlacement()
        default: break
        }
        guard liveClock.origin != nil else { return }
        let kept = LocalFrames(configuration.maxDelay.audioFrames + AudioFormat.frames(milliseconds: 2_000))
        line.dropPackets(endingBy: (livePosition(at: now) - liveClock.line.stationFrames(kept)).count)
        if !line.isEmpty { timeline.dropEvents(before: line.startPosition) }
        // A pause ends where the delay would pass the maximum. (Not where the audio held
        // begins: paused while a delay builds, playout waits for audio not held yet.)
        let oldestAllowed = position(forDelay: LocalFrames(configuration.maxDelay.audioFrames), at: now)
        if case .paused(let position) = transport, position < oldestAllowed {
            notifications.append(.pauseExceededMaximum(droppedFrames: (oldestAllowed - position).count))
            transport = .paused(at: oldestAllowed)
        }
        let available = TimeAmount.wholeMilliseconds(frames: availableDelayFrames(at: now).count)
        let reachedMaximum = available == configuration.maxDelay && lastReportedAvailable != available
        let moved = (available - lastReportedAvailable).magnitude
        if moved >= configuration.availableDelayReportStep || reachedMaximum {
            lastReportedAvailable = available
            notifications.append(.availableDelayChanged(milliseconds: available.milliseconds))
        }
    }
}
