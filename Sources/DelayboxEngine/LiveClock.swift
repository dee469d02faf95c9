/// Where live is on the timeline at each local instant (issues 58, 67): from the first
/// packet at the nominal rate, then at the station's own rate, fitted to the arrivals of
/// the connections' placements (`StationClock`), kept as far above their line as live was
/// when it was first known. The engine's placements say when one begins and settles; this
/// says, at each fit, how far the positions of a placement being levelled must move.
struct LiveClock {
    /// Local time from which the live line counts; set by the first packet.
    private(set) var origin: Instant?
    /// Which timeline position is live when.
    private(set) var line = LiveLine()
    /// The station's clock, from the arrival times of every placement's packets.
    private var stationClock = StationClock()
    /// Placements begun so far: the segment each packet's arrival is kept under.
    private var placementCount = 0
    /// Each settled placement's base, by segment (`placementCount`).
    private var settledPlacements: [Int: Int64] = [:]
    /// The placement by time whose positions are being brought onto the arrivals' line.
    private var leveling: Leveling?
    /// Spliced segments whose arrivals' lag against the line is being learnt: their
    /// positions are their content's, but their path may be another (a CDN's other edge).
    private var learningLags: Set<Int> = []
    /// How far below the line each spliced segment's arrivals lie (frames), as learnt.
    private var segmentLags: [Int: Double] = [:]
    /// When the first placement settled (local frames since the origin): where live was
    /// as it said, before the station's rate was known.
    private var firstSettledLocal: LocalFrames?
    /// How far live lies above the line through the arrivals (frames): drawn through
    /// `liveAtAnchor` by each fit while the line's level is being learned
    /// (`StationClock.levelKnownPoints`), then fixed.
    private var liveAboveArrivals: Double?
    /// Where the first placement put live at `firstSettledLocal` (a timeline position), the
    /// room's moves added: the point live is measured from while the station's line is
    /// young (issue 67: fixing the offset to the first 10-second fit kept its noise, a few
    /// ms, for good).
    private var liveAtAnchor: StationFrames?
    /// Whether live follows the station's clock: once its error shows (`Fit.isEvident`).
    private var followingStation = false
    /// Whether the log was told the station's clock is far off (once a run).
    private var reportedFarStationClock = false

    /// A station heard before (`knownPpm`, its clock's error): followed at its rate from the
    /// first packet.
    init(knownPpm: Double?) {
        guard let knownPpm else { return }
        line.rate = 1 + knownPpm / 1e6
        followingStation = true
    }

    /// Local frames since the origin at `now`; nil before the first packet.
    func local(at now: Instant) -> LocalFrames? { origin.map { LocalFrames(now.frames(since: $0)) } }

    /// The timeline position that is live at `now` (0 before the first packet).
    func position(at now: Instant) -> StationFrames {
        guard let local = local(at: now) else { return .zero }
        return line.position(atLocal: local)
    }

    /// When `position` was live by this line; nil before the first packet.
    func liveTime(ofPosition position: StationFrames) -> Instant? {
        origin?.advanced(byFrames: (line.anchorLocal + line.localFrames(position - line.anchorPosition)).count)
    }

    /// The first packet came at `now`: the line counts from there.
    mutating func start(at now: Instant) {
        if origin == nil { origin = now }
    }

    /// A new connection (or a discontinuity) is being placed: its arrivals are a segment
    /// of their own.
    mutating func beginPlacement() { placementCount += 1 }

    /// A packet of the current placement arrived at `now`, the stream's newest frame then
    /// `stream` (connection frames); true when a fit of the arrivals is due (`follow`).
    mutating func observe(stream: Int64, beforeBatching: Bool, at now: Instant) -> Bool {
        guard let local = local(at: now) else { return false }
        return stationClock.observe(
            segment: placementCount, local: local.count, stream: stream, beforeBatching: beforeBatching)
    }

    /// The current placement settled at `base`: where its arrivals lie on the timeline. A
    /// splice continues the positions of the audio before it exactly, so its arrivals say
    /// nothing of where live is — they may come by another path (a reconnect to another
    /// edge of a CDN) — until their lag against the line is learnt; one placed by time
    /// starts afresh, its own arrivals saying it (levelled onto the line once live's offset
    /// above it is known: its positions from `firstSequence` on).
    mutating func settled(spliced: Bool, base: StationFrames?, firstSequence: Int64?, settledAt: Instant?) {
        let segment = placementCount
        if spliced {
            if leveling != nil { leveling?.segments.insert(segment) } else { learningLags.insert(segment) }
        } else if liveAboveArrivals != nil, let firstSequence {
            leveling = Leveling(segments: [segment], firstSequence: firstSequence)
        } else {
            leveling = nil
            if firstSettledLocal == nil, let origin, let settledAt {
                firstSettledLocal = LocalFrames(settledAt.frames(since: origin))
            }
        }
        settledPlacements[segment] = base?.count ?? 0
    }

    /// A placement by time, and the splices that continue it, while its positions are
    /// brought onto the line of the arrivals before it.
    struct Leveling {
        var segments: Set<Int>
        var firstSequence: Int64
        /// Points of theirs it takes to be done: a minute.
        static let donePoints = 60
        /// Points before the first move: 10 s (in a model of in-order arrivals 0-500 ms
        /// late, their mean is within 9 ms where the placement's tightest bound was 30 off).
        static let firstMovePoints = 10
    }

    /// What a fit of the arrivals changed that the engine carries out.
    struct Following {
        /// The station's clock error and its uncertainty (ppm), as the fit says.
        var ppm: Double
        var ppmError: Double
        /// Positions from this sequence on move by this many frames (a placement levelled
        /// onto the line); the current placement's base with them when `movesCurrent`.
        var shift: (fromSequence: Int64, by: Int64)?
        var movesCurrent = false
        /// The current connection's arrivals moved to a new lag there (its path changed).
        var lagStep = false
        /// The station's clock is far off (ppm): said once a run.
        var farOff: Double?
    }

    /// A fit of the arrivals is due: live follows the station's rate from here and, while
    /// no placement is being refined (`placementFixed`), the line through the arrivals of
    /// the placements that share the current one's positions, kept as far above it as live
    /// was when it was first known (the placement's tightest bound, which is what "live"
    /// means here; the line is the typical least lag). A placement by time is off by its
    /// first seconds' jitter; its own arrivals are off by as much, so live follows them and
    /// the heard delay does not move. `sparse`: the points come a segment apart (HLS);
    /// `knownPpm`: the rate the station was followed at before. Nil when there is no fit.
    mutating func follow(at now: Instant, placementFixed: Bool, sparse: Bool, knownPpm: Double?) -> Following? {
        let points = stationClock.points
        guard let local = local(at: now),
            let arrivals = stationClock.fit(
                points, settled: settledPlacements, leveling: leveling?.segments ?? [], learning: learningLags,
                lags: segmentLags, sparse: sparse)
        else { return nil }
        let fit = knownPpm.map { arrivals.joined(priorPpm: $0) } ?? arrivals
        var following = Following(ppm: fit.ppm, ppmError: fit.ppmError)
        settledPlacements = settledPlacements.filter { $0.key == placementCount || stationClock.holds(segment: $0.key) }
        segmentLags = segmentLags.filter { settledPlacements[$0.key] != nil }
        learningLags = learningLags.filter { settledPlacements[$0] != nil }
        followingStation = followingStation || fit.isEvident || sparse
        following.lagStep = placementFixed && splitAtLagStep(in: points, slope: arrivals.rate)
        guard followingStation else { return following }
        let followed = sparse ? fit.weighed : fit.followed
        if let leveling { level(leveling, fit: followed, into: &following) }
        learnLags(fit: followed)
        if placementFixed, let level = followed.level {
            let arrivalsLine = level + followed.rate * Double(local.count)
            // Live as the first placement put it, where it put it: the drift of the minutes
            // before the station's rate was known is taken out.
            let anchor = firstSettledLocal ?? local
            let live = liveAtAnchor ?? line.position(atLocal: anchor)
            liveAtAnchor = live
            // Points a segment apart fix it at the first fit: redrawn through the anchor, each
            // fit's rate error moved live by that error times the minutes since the placement
            // (on air, 10 s segments: 13 ms over two minutes, then an 11 ms step back), where
            // fixed, live moves only by the line's error now — a few ms, shrinking.
            if liveAboveArrivals == nil || !sparse && stationClock.pointCount < StationClock.levelKnownPoints {
                liveAboveArrivals = Double(live.count) - (level + followed.rate * Double(anchor.count))
            }
            let offset = liveAboveArrivals ?? 0
            line = LiveLine(
                anchorLocal: local, anchorPosition: StationFrames(Int64((arrivalsLine + offset).rounded())),
                rate: followed.rate)
        } else {
            line = line.continued(at: local, rate: followed.rate)
        }
        // Said once the figure is worth saying: followed from the first evidence, told once
        // it is known to 15 ppm.
        if abs(fit.ppm) > StationClock.farOffPpm, fit.ppmError <= StationClock.toldWithinPpm, !reportedFarStationClock {
            reportedFarStationClock = true
            following.farOff = fit.ppm
        }
        return following
    }

    /// Takes live to lie `frames` further on the timeline at every moment (a room's move),
    /// kept through the station clock's refits.
    mutating func move(by frames: StationFrames) {
        line.anchorPosition += frames
        liveAboveArrivals? += Double(frames.count)
        liveAtAnchor? += frames
    }

    /// Holds live at `position` at local frame `local`, at `rate` (a journal's mark after a
    /// restart): the next fits of the arrivals move it only by how their rate differs from
    /// then on.
    mutating func hold(position: StationFrames, atLocal local: LocalFrames, rate: Double) {
        line = LiveLine(anchorLocal: local, anchorPosition: position, rate: rate)
        (firstSettledLocal, liveAtAnchor, liveAboveArrivals) = (local, position, nil)
        followingStation = followingStation || rate != 1
    }

    /// Moves the positions being levelled by how far their arrivals lie off the line of
    /// those before them (the placement by time took its first seconds' tightest arrival
    /// for live; a minute of them says better).
    private mutating func level(_ leveling: Leveling, fit: StationClock.Fit, into following: inout Following) {
        guard let reference = fit.level, let own = fit.levelingLevel,
            fit.levelingPoints >= Leveling.firstMovePoints
        else { return }
        let delta = Int64((reference - own).rounded())
        if delta != 0 {
            following.shift = (leveling.firstSequence, delta)
            for segment in leveling.segments { settledPlacements[segment]? += delta }
            following.movesCurrent = leveling.segments.contains(placementCount)
        }
        if fit.levelingPoints >= Leveling.donePoints { self.leveling = nil }
    }

    /// When the current connection's arrivals moved to a new lag (its path changed: `LagStep`),
    /// its points from there on become a segment of their own whose lag is learnt, as a
    /// splice's is: the line keeps the level of those before. Only for a connection that is
    /// part of the line (settled, not being levelled nor learnt); true when it split.
    private mutating func splitAtLagStep(in points: [StationClock.Point], slope: Double) -> Bool {
        let current = placementCount
        guard leveling == nil, !learningLags.contains(current),
            let base = settledPlacements[current],
            let begun = LagStep.begins(
                in: points, segment: current, slope: slope, batchingStep: stationClock.batchingStep)
        else { return false }
        placementCount += 1
        settledPlacements[placementCount] = base
        learningLags.insert(placementCount)
        stationClock.split(segment: current, from: begun, into: placementCount)
        return true
    }

    /// Points of the line a spliced segment's lag is learnt against: while the line has
    /// fewer (the arrivals before the splice leave the hour kept), what was learnt is kept.
    static let lagReferencePoints = 60

    /// Each spliced segment's lag against the line as its arrivals and the line's say now;
    /// kept for good once the line's own points grow few, and its points then join the line.
    private mutating func learnLags(fit: StationClock.Fit) {
        for segment in learningLags {
            if let reference = fit.level, let own = fit.learningLevel(of: segment) {
                segmentLags[segment] = reference - own
            }
            if fit.linePoints < Self.lagReferencePoints { learningLags.remove(segment) }
        }
    }
}
