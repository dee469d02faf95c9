extension PlaybackEngine {
    /// A jump in connection timestamps beyond this starts a new placement (frames).
    static let discontinuityFrames = Int64(AudioFormat.sampleRate)

    /// The highest base a connection's timeline can have given that `packet` had arrived,
    /// with `receivedAheadFrames` of newer audio, when `live` was the live position: all
    /// of that audio was live by then.
    static func timeBound(of packet: StreamPacket, live: StationFrames) -> Int64 {
        live.count - packet.connectionTimestamp - Int64(packet.durationFrames) - packet.receivedAheadFrames
    }

    /// Takes one packet from the stream client, which received it at `now`.
    public func ingest(_ packet: StreamPacket, now: Instant) {
        guard packet.durationFrames > 0, packet.durationFrames <= ReadHead.maximumPacketFrames else {
            reject("duration \(packet.durationFrames) frames outside 1...\(ReadHead.maximumPacketFrames)")
            return
        }
        guard !packet.payload.isEmpty, packet.payload.count <= DelayLine.maximumPayloadBytes else {
            reject("payload of \(packet.payload.count) bytes outside 1...\(DelayLine.maximumPayloadBytes)")
            return
        }
        liveClock.start(at: now)
        // Audio proves a connection even if the client did not say it opened one.
        if connection == .connecting || connection == .reconnecting { connectionOpened(now: now) }
        if deliveredInSegments, let local = liveClock.local(at: now) { cadence.arrived(at: local.count) }
        if let expected = placement.expectedTimestamp {
            let jump = packet.connectionTimestamp - expected
            if packet.followsLostAudio, jump > 0, let base = placement.base, !isMatching {
                reportLost(atPosition: base + expected, frames: jump)
            } else if abs(jump) > Self.discontinuityFrames {
                beginPlacement(now: now)
            }
        }
        placement.expectedTimestamp = packet.connectionTimestamp + Int64(packet.durationFrames)
        let bound = Self.timeBound(of: packet, live: livePosition(at: now))
        placement.timeBound = min(placement.timeBound ?? bound, bound)
        switch placement.phase {
        case .matching(var matcher):
            placement.pending.append((packet, now))
            let verdict = matcher.offer(packet.payload, line: line)
            placement.phase = .matching(matcher)
            switch verdict {
            case .undecided:
                if now - placement.pending[0].arrival >= configuration.spliceDecision {
                    resolveByTime(among: matcher.candidates, now: now)
                }
            case .noOverlap: placePendingByTime()
            case .splice(let sequence): splice(at: sequence, now: now)
            }
        case .timed:
            placeByTime(packet, arrival: now)
        case .spliced, .fixed:
            append(packet, base: placement.base!)
        }
        if !receivedAudio {
            receivedAudio = true
            updateState(.firstAudioReceived)
        }
        let streamEnd = packet.connectionTimestamp + Int64(packet.durationFrames) + packet.receivedAheadFrames
        if liveClock.observe(stream: streamEnd, beforeBatching: packet.readBeforeBatching, at: now) {
            followStation(now: now)
        }
    }

    /// Takes a stream event stamped with a connection timestamp (frames).
    /// - Parameters:
    ///   - announcedAtConnect: it came with the connection's first title: the stream's
    ///     state as the server resends it to every new listener, not something the
    ///     broadcaster just sent. Muted, unmuted and the title are state and apply as
    ///     usual; an ad break already placed is not placed again, and one whose start was
    ///     not heard is placed where its tag says it began, or, if it does not say, not
    ///     played (docs/stream-events.md, "Exactly once").
    ///   - startedAgo: for an ad break whose tag says when it began, how long before
    ///     `now` that was by this box's clock.
    public func ingest(
        event: StreamEvent, connectionTimestamp: Int64, now: Instant, announcedAtConnect: Bool = false,
        startedAgo: TimeAmount? = nil
    ) {
        if case .adBreak(let ad) = event {
            // A break that says when it began is that break wherever its tag comes again.
            if announcedAtConnect || ad.startedAt != nil, timeline.events.contains(where: { $0.event == event }) {
                notifications.append(
                    .eventNotTriggered(
                        event,
                        reason: announcedAtConnect
                            ? "resent on reconnecting: the break is already on the timeline"
                            : "sent again: the break is already on the timeline"))
                return
            }
            if announcedAtConnect {
                guard let startedAgo else {
                    notifications.append(
                        .eventNotTriggered(
                            event, reason: "on air when the connection opened: its start was not heard here"))
                    return
                }
                // Where it began: the timeline's positions are live times. Playout plays
                // what is left of it, or nothing if it is over there — or over before the
                // oldest audio held, where playout can never be.
                let placed = TimelineEvent(
                    event: event,
                    position: (livePosition(at: now)
                        - liveClock.line.stationFrames(LocalFrames(max(.zero, startedAgo).audioFrames))).count)
                let playableFrom = eventCursor != .min ? eventCursor : line.isEmpty ? nil : line.startPosition
                if let playableFrom, placed.hasEnded(by: playableFrom) {
                    notifications.append(
                        .eventNotTriggered(event, reason: "on air when the connection opened: over where playout is"))
                } else {
                    place(placed)
                    placement.placedByClock.insert(placed)
                }
                return
            }
        }
        // The state a server resends at every connection is an event only where it is news:
        // on every glitch the log and MQTT's events repeated "muted" (issue 44).
        if announcedAtConnect, isAlreadyStated(event) { return }
        guard let base = placement.base, !isMatching else {
            placement.pendingEvents.append((event, connectionTimestamp))
            return
        }
        place(TimelineEvent(event: event, position: base + connectionTimestamp))
    }

    /// Whether the programme already is what `event` (a state: muted, unmuted, a title)
    /// says, by every event the engine holds and waits to place.
    private func isAlreadyStated(_ event: StreamEvent) -> Bool {
        var state = timeline.state(at: Int64.max / 2)
        for (pending, _) in placement.pendingEvents { state.apply(pending, at: 0) }
        switch event {
        case .streamerMuted: return state.streamerMuted
        case .streamerUnmuted: return !state.streamerMuted
        case .title(let title): return state.title == title
        case .adBreak: return false
        }
    }

    var isMatching: Bool {
        if case .matching = placement.phase { return true }
        return false
    }

    func reject(_ reason: String) {
        statistics.rejectedPackets += 1
        notifications.append(.packetRejected(reason))
    }

    /// Starts placing a new connection (or a discontinuity) on the timeline.
    func beginPlacement(now: Instant) {
        decidePendingPlacement(now: now)
        settlePlacement()
        var next = ConnectionPlacement()
        liveClock.beginPlacement()
        if !line.isEmpty {
            next.previousEnd = line.endPosition
            let searchFrom = line.endPosition - configuration.spliceSearch.audioFrames
            next.phase = .matching(
                SpliceMatcher(
                    searchStart: line.lastSequence(atOrBefore: searchFrom) ?? line.firstSequence))
        }
        placement = next
    }

    /// Appends `packet` at `base + timestamp`, unless it repeats audio already held.
    private func append(_ packet: StreamPacket, base: Int64) {
        let position = base + packet.connectionTimestamp
        if !line.isEmpty, position < line.endPosition - DelayLine.contiguityToleranceFrames {
            statistics.duplicatePackets += 1
            return
        }
        let sequence = line.append(packet.payload, durationFrames: packet.durationFrames, at: position)
        if placement.firstSequence == nil { placement.firstSequence = sequence }
    }

    /// The matcher found the first pending packet at `sequence`: splice the rest in place.
    private func splice(at sequence: Int64, now: Instant) {
        let first = placement.pending[0].packet
        let base = line[sequence].position - first.connectionTimestamp
        let overlap = line.endPosition - line[sequence].position
        placement.base = base
        placement.firstTimestamp = first.connectionTimestamp
        for (packet, _) in placement.pending { append(packet, base: base) }
        placement.pending.removeAll()
        placement.phase = .spliced(verifyAt: now + configuration.placementWindow)
        statistics.splices += 1
        notifications.append(.spliced(overlapFrames: overlap))
        placePendingEvents()
    }

    /// Places the packets waiting for the splice matcher's verdict now, by content if it
    /// has candidates that agree with their arrival times, else by time.
    func decidePendingPlacement(now: Instant) {
        if case .matching(let matcher) = placement.phase { resolveByTime(among: matcher.candidates, now: now) }
    }

    /// Content left several candidates (repeated identical packets): take the one whose
    /// placement agrees best with the arrival times, if it agrees within a second;
    /// otherwise the new packets are placed by time.
    private func resolveByTime(among candidates: [Int64], now: Instant) {
        guard let first = placement.pending.first?.packet, let estimate = placement.timeBound else { return }
        func distance(_ candidate: Int64) -> Int64 {
            abs(line[candidate].position - first.connectionTimestamp - estimate)
        }
        if let best = candidates.min(by: { distance($0) < distance($1) }),
            distance(best) <= Int64(AudioFormat.sampleRate)
        {
            splice(at: best, now: now)
        } else {
            placePendingByTime()
        }
    }

    /// The pending packets do not overlap what is held: place them by arrival time.
    private func placePendingByTime() {
        let pending = placement.pending
        placement.pending.removeAll()
        placement.phase = .timed(settlesAt: nil)
        for (packet, arrival) in pending { placeByTime(packet, arrival: arrival) }
    }

    /// Places `packet` by its arrival time, refining the placement while it is young.
    private func placeByTime(_ packet: StreamPacket, arrival: Instant) {
        let bound = Self.timeBound(of: packet, live: livePosition(at: arrival))
        if let base = placement.base {
            let refined = max(bound, placement.lowestBase)
            if refined < base { shiftPlacement(by: refined - base) }
        } else {
            placement.firstTimestamp = packet.connectionTimestamp
            placement.base = max(bound, placement.lowestBase)
            placement.phase = .timed(settlesAt: arrival + placementWindow)
            statistics.timedPlacements += 1
            placePendingEvents()
        }
        append(packet, base: placement.base!)
    }

    /// How long a placement by arrival time is refined. A live HLS connection's first
    /// delivery is the newest segments listed when it connected — listed up to a segment
    /// before — and the next is found while the box is still learning when segments
    /// appear; only the one after comes within milliseconds of being listed, and its bound
    /// decides (a placement settled on the first two was up to 0.6 s off, for good).
    private var placementWindow: TimeAmount {
        let window = configuration.placementWindow
        guard let segmentDuration else { return window }
        return max(window, 2 * segmentDuration + .seconds(1))
    }

    /// Moves everything of the current placement by `delta` frames: packets,
    /// events, and heads playing them, which keep delivering the same audio.
    private func shiftPlacement(by delta: Int64) {
        placement.base! += delta
        guard let first = placement.firstSequence else { return }
        shiftPositions(fromSequence: first, by: delta)
    }

    /// Moves every packet from sequence `first` on by `delta` frames, with the events and
    /// heads there, which keep delivering the same audio.
    func shiftPositions(fromSequence first: Int64, by delta: Int64) {
        guard first >= line.firstSequence, first < line.endSequence else { return }
        let oldStart = line[first].position
        line.shiftPositions(from: first, by: delta)
        timeline.shift(from: oldStart, by: delta, keeping: placement.placedByClock)
        heads.shift(from: oldStart, by: delta)
        let (from, by) = (StationFrames(oldStart), StationFrames(delta))
        if case .waiting(let hold?) = transport, hold >= from { transport = .waiting(hold: hold + by) }
        if case .paused(let at) = transport, at >= from { transport = .paused(at: at + by) }
        if case .resuming(let at) = transport, at >= from { transport = .resuming(at: at + by) }
        if eventCursor >= oldStart { eventCursor += delta }
    }

    /// Ends the placement window: from now on the placement is fixed. A placement by time
    /// reports the audio between the previous connection's end and its start as lost. A
    /// splice is checked against the arrival times: if its packets arrived more than a
    /// second later than their spliced place allows, the match was identical content from
    /// a new encoder, not a resend, and the packets move to where time puts them.
    func settlePlacement() {
        switch placement.phase {
        case .timed(let settlesAt?):
            placement.phase = .fixed
            keepForStationClock(spliced: false, settledAt: settlesAt)
            reportLostBeforePlacement()
        case .spliced:
            placement.phase = .fixed
            guard let base = placement.base, let bound = placement.timeBound,
                bound - base > Int64(AudioFormat.sampleRate)
            else {
                keepForStationClock(spliced: true)
                return
            }
            shiftPlacement(by: bound - base)
            keepForStationClock(spliced: false)
            statistics.splices -= 1
            statistics.falseSplices += 1
            reportLostBeforePlacement()
        default:
            return
        }
    }

    private func reportLostBeforePlacement() {
        guard let previousEnd = placement.previousEnd, let first = placement.firstSequence,
            first >= line.firstSequence, first < line.endSequence
        else { return }
        reportLost(atPosition: previousEnd, frames: line[first].position - previousEnd)
    }

    /// Counts and tells `frames` of audio lost from timeline position `position` on, when
    /// more than a gap the line takes for contiguous.
    private func reportLost(atPosition position: Int64, frames: Int64) {
        guard frames > DelayLine.contiguityToleranceFrames else { return }
        statistics.lostFrames += frames
        notifications.append(.audioLost(atPosition: position, frames: frames))
    }

    private func placePendingEvents() {
        guard let base = placement.base else { return }
        for (event, timestamp) in placement.pendingEvents {
            place(TimelineEvent(event: event, position: base + timestamp))
        }
        placement.pendingEvents.removeAll()
    }

    /// Puts an event on the timeline; one whose position playout already passed takes
    /// effect at once, as far into it as playout is (a break over by then: not at all).
    private func place(_ event: TimelineEvent) {
        guard timeline.insert(event) else { return }
        if event.position < eventCursor, !event.hasEnded(by: eventCursor) {
            notifications.append(
                .eventTookEffect(
                    event, .reached, outputFrame: statistics.renderedFrames,
                    elapsedFrames: eventCursor - event.position))
        }
    }
}

extension PlaybackEngine {
    /// The current placement settled: the live clock learns where its arrivals lie.
    func keepForStationClock(spliced: Bool, settledAt: Instant? = nil) {
        liveClock.settled(
            spliced: spliced, base: placement.base.map(StationFrames.init), firstSequence: placement.firstSequence,
            settledAt: settledAt)
    }

    /// A fit of the arrivals is due (`LiveClock.follow`): the figures it gives are kept, and
    /// the positions of a placement it levelled move with their events and heads.
    func followStation(now: Instant) {
        let fixed = if case .fixed = placement.phase { true } else { false }
        guard
            let following = liveClock.follow(
                at: now, placementFixed: fixed, sparse: segmentDuration != nil,
                knownPpm: configuration.knownStationPpm)
        else { return }
        statistics.stationClockPpm = following.ppm
        statistics.stationClockPpmError = following.ppmError
        if following.lagStep { statistics.lagSteps += 1 }
        if let shift = following.shift {
            shiftPositions(fromSequence: shift.fromSequence, by: shift.by)
            if following.movesCurrent { placement.base? += shift.by }
        }
        if let ppm = following.farOff { notifications.append(.stationClockFarOff(ppm: ppm)) }
    }
}
