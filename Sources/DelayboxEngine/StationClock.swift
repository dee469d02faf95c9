/// The station's clock, followed from arrival times alone (issue 58).
///
/// An encoder's sound card runs on its own crystal (tens of ppm off is normal, 100 ppm not
/// rare), so its stream time drifts against this box's CLOCK_MONOTONIC, and a delay fixed
/// once at the placement would slide by that error (50 ppm: 0.18 s an hour). Audio cannot
/// arrive before it is live, so the packets with the least lag lie on the station's clock
/// whatever jitter, batching, a connect burst or a congested minute add above them.
///
/// Arrivals are kept as one point a second (the packet with the least lag in it), an hour
/// of them; a point never spans two segments (placements: a reconnect or a timestamp
/// jump), since each has its own zero. The fit is least squares with an intercept per
/// segment, refitted twice without the points more than three deviations below it — lag
/// is only ever added, so those are a congested path's. The line it gives is the points'
/// typical least lag, not their best (an hour of seconds averages the jitter out, where
/// the best one is one lucky packet): the engine keeps its placement's "live" and follows
/// how this line moves. Pure: times come as frames.
struct StationClock {
    /// One envelope point: in segment `segment`, audio up to connection frame `stream` had
    /// arrived `local` frames (at the nominal rate) after the engine's origin.
    struct Point: Equatable {
        var segment: Int
        var local: Int64
        var stream: Int64
        /// Stamped before the connection's reads were batched (`StreamPacket.readBeforeBatching`).
        var beforeBatching = false

        /// The points that share one line's intercept: a segment's, apart for the finer
        /// stamps of its first seconds — a second of many stamps has its least lag a few ms
        /// above one of two, a step that one intercept would read as a rate (−400 ppm on a
        /// loopback Icecast for a station on time, issue 67).
        var group: Int { segment * 2 + (beforeBatching ? 1 : 0) }
    }

    /// The line through the points: the station's rate, and where the line lies on the
    /// timeline (`level + rate · local`) when some segment's base is known. The line passes
    /// through its points' centroid whatever `rate` is made (joined with a known rate,
    /// shrunk by its doubt), so a rate changed moves the line about its points, not about
    /// local frame 0.
    struct Fit: Equatable {
        /// Stream frames per local frame.
        var rate: Double
        /// The standard error of `ppm`.
        var ppmError: Double
        /// Where the points of settled segments not being levelled lie on average (local
        /// frame, timeline position); nil until a settled placement's points are in the fit.
        var lineCentroid: Centroid?
        /// The same for the points of the segments being levelled, and how many they are.
        var levelingCentroid: Centroid?
        var levelingPoints = 0
        /// How many points the line's centroid is of.
        var linePoints = 0
        /// Where the points of each spliced segment whose lag is being learnt lie on average,
        /// and how many they are (`StationClock.fit`'s `learning`).
        var learningCentroids: [Int: Learnt] = [:]

        /// A learning segment's points: where they lie on average, and how many.
        struct Learnt: Equatable {
            var centroid: Centroid
            var points: Int
        }

        struct Centroid: Equatable {
            var local: Double
            var timeline: Double

            /// Points added up towards their centroid.
            struct Sum {
                var local = 0.0, timeline = 0.0
                var count = 0
                mutating func add(local: Int64, timeline: Int64) {
                    self.local += Double(local)
                    self.timeline += Double(timeline)
                    count += 1
                }
                var centroid: Centroid { Centroid(local: local / Double(count), timeline: timeline / Double(count)) }
            }
        }

        /// The timeline position of the line at local frame 0.
        var level: Double? { lineCentroid.map { $0.timeline - rate * $0.local } }
        /// Where the points being levelled lie (as `level`).
        var levelingLevel: Double? { levelingCentroid.map { $0.timeline - rate * $0.local } }
        /// Where the points of spliced segment `segment` lie (as `level`); nil: none learnt.
        func learningLevel(of segment: Int) -> Double? {
            learningCentroids[segment].map { $0.centroid.timeline - rate * $0.centroid.local }
        }
        /// The station's error (ppm; positive: it runs fast).
        var ppm: Double { (rate - 1) * 1e6 }
        /// Whether the arrivals show the error beyond their own scatter (three standard
        /// errors): followed from then on. A station on time is then left alone, where
        /// following the first minutes' noise would move its delay by milliseconds.
        static let evidence = 3.0
        var isEvident: Bool { abs(ppm) > Self.evidence * ppmError }

        /// This fit with its error shrunk by its doubt: ppm · (1 − (3σ / ppm)²), none while
        /// not evident. What is followed: a rate barely evident is mostly noise (the first
        /// minute on a real path, where the scatter is not white), one far beyond its doubt
        /// is taken nearly whole, and the rate moves smoothly between the two as the
        /// arrivals add up — never a step from "none" to a first fit's rate.
        var followed: Fit {
            var followed = self
            let ppm = self.ppm
            guard ppm != 0 else { return followed }
            let doubt = Self.evidence * ppmError / ppm
            followed.rate = 1 + ppm * max(0, 1 - doubt * doubt) / 1e6
            return followed
        }

        /// This fit's rate as the points and what stations are like say together: the rate
        /// weighed against none by how sure each is — ppm · τ² / (τ² + σ²), τ the spread of
        /// stations' errors (`stationSpreadPpm`), σ this fit's standard error. What is followed
        /// where points come a segment apart (HLS): waiting until the rate is evident beyond
        /// three σ let a station 200 ppm fast slide 24 ms in 10 s segments' first two minutes;
        /// this follows most of it from the first fit and a station on time by a little.
        var weighed: Fit {
            let spread = StationClock.stationSpreadPpm * StationClock.stationSpreadPpm
            let variance = ppmError * ppmError
            guard variance.isFinite else {
                var none = self
                none.rate = 1
                return none
            }
            var weighed = self
            weighed.rate = 1 + ppm * spread / (spread + variance) / 1e6
            return weighed
        }

        /// This fit joined with a rate known before (`priorPpm`, to within
        /// `priorErrorPpm`), each weighed by how sure it is — the fit's standard error
        /// taken three times, as arrivals a second apart share their jitter: the first
        /// seconds' fit moves a known station's rate little, an hour's decides it.
        func joined(priorPpm: Double) -> Fit {
            let fitVariance = 9 * ppmError * ppmError,
                priorVariance = StationClock.priorErrorPpm * StationClock.priorErrorPpm
            guard fitVariance.isFinite, fitVariance > 0 else { return self }
            let joinedPpm = (ppm * priorVariance + priorPpm * fitVariance) / (priorVariance + fitVariance)
            var joined = self
            joined.rate = 1 + joinedPpm / 1e6
            joined.ppmError = (priorVariance * fitVariance / (priorVariance + fitVariance)).squareRoot() / 3
            return joined
        }
    }

    /// Width of a point's bin (frames of local time): a second. Shorter bins give more
    /// points (measured in a model of in-order arrivals 0-500 ms late, an hour of 1 s
    /// points follows the line within 4.3 ms p99; of 10 s points, 12 ms); an HLS segment
    /// arriving whole makes one point, its newest packet, whatever the width.
    static let binFrames = Int64(AudioFormat.sampleRate)
    /// Points kept: an hour.
    static let keptPoints = 3_600
    /// The span of points before a rate is fitted at all (frames): 10 s. Whether it is then
    /// followed is the fit's own uncertainty's to say (`Fit.isEvident`): a station 500 ppm
    /// off is evident within seconds, one 50 ppm off in about half a minute — when it has
    /// slid by 2 ms. (It was 2 minutes, and the heard delay slid by all of the station's
    /// error until then, taken back in one crossfade: issue 67.)
    static let trustedSpanFrames = Int64(AudioFormat.sampleRate) * 10
    /// Points before a rate is fitted at all, whatever their span: a stream delivered in
    /// 10 s segments gives one point a segment, and a line through its first two or three
    /// has no scatter to doubt it by (an HLS station on time read as −905 ppm at 20 s and
    /// followed: issue 67). A continuous stream has them in its first 10 s.
    static let fewestFittedPoints = 10
    /// How far stations' clocks are typically off (ppm): crystals within tens, 100 not rare
    /// (`Fit.weighed`).
    static let stationSpreadPpm = 150.0
    /// Points a segment apart (HLS): fitted from six (a minute of 10 s segments; each known
    /// to a few ms, where a second's least lag on Icecast wanders by more), each taken as
    /// scattered by at least `sparseScatterFrames` — the polls' own spacing near a segment's
    /// due time — so that a few lucky points are not taken for a sure rate.
    static let fewestSparsePoints = 6
    static let sparseScatterFrames = 3.0 * Double(AudioFormat.framesPerMillisecond)
    /// How well a station's rate known from an earlier run holds (ppm): a crystal's
    /// ageing and the studio's temperature move it by a few.
    static let priorErrorPpm = 3.0
    /// A rate further off than this (ppm) is not a crystal's error: ignored.
    static let plausiblePpm = 1_000.0
    /// Beyond this (ppm) the log says so: ordinary crystals are within tens.
    static let farOffPpm = 100.0
    /// The standard error (ppm) a rate the log tells must be known to.
    static let toldWithinPpm = 15.0
    /// Points after which the line's level is known well enough to hold live's offset from
    /// it (2 minutes: the level of 120 points is within a fifth of one point's scatter);
    /// before, each fit draws the line through where the first placement put live. Not
    /// later: until then each better rate moves live by its change times the time since
    /// the placement (a CI-style run with 300: the heard delay still settling by 1.3 ms a
    /// minute at 3-5 minutes on air). Points a segment apart: the first fit's (`followStation`).
    static let levelKnownPoints = 120
    /// Points closed between two fits: every 10 s — every second while fewer than
    /// `earlyPoints` are kept, so that a station's rate is followed as soon as it shows, and
    /// once more than 600 are, a 60th of them (an hour's: every minute). A fit's cost grows
    /// with its points (sorts and passes over all of them: with a fit every 10 s of an
    /// hour's points the engine ran 32 % slower, issue 67), its news shrinks with them.
    static let pointsPerFit = 10
    static let earlyPoints = 60
    static let newPointsShare = 60

    /// The bin being filled: its least-lag point so far.
    private var filling: Point?
    /// Closed bins, oldest first, at most `keptPoints`, in a ring from `oldest`.
    private var ring: [Point] = []
    private var oldest = 0
    /// Points closed since the last fit.
    private var sinceFit = 0
    /// How far a connection's batched seconds lie below its first ones, read as the bytes
    /// came (frames, on the fitted line): the latest a connection with both showed.
    private(set) var batchingStep: Double?
    /// The last plausible fit's slope: where the next fit starts looking for the points that
    /// lie too far below the line.
    private var lastSlope: Double?

    init() { ring.reserveCapacity(Self.keptPoints) }

    /// How many points are kept.
    var pointCount: Int { ring.count }

    /// The points kept, oldest first.
    var points: [Point] { Array(ring[oldest...] + ring[..<oldest]) }

    /// Takes a packet that arrived `local` frames after the origin with audio up to
    /// connection frame `stream` of segment `segment`. Returns true when a fit is due.
    /// `beforeBatching`: stamped before the connection's reads were batched (its own intercept,
    /// not in the level).
    mutating func observe(segment: Int, local: Int64, stream: Int64, beforeBatching: Bool = false) -> Bool {
        let point = Point(segment: segment, local: local, stream: stream, beforeBatching: beforeBatching)
        guard let current = filling else {
            filling = point
            return false
        }
        if current.group == point.group, current.local / Self.binFrames == local / Self.binFrames {
            if stream - local > current.stream - current.local { filling = point }
            return false
        }
        if ring.count < Self.keptPoints {
            ring.append(current)
        } else {
            ring[oldest] = current
            oldest = (oldest + 1) % Self.keptPoints
        }
        filling = point
        sinceFit += 1
        let due = ring.count < Self.earlyPoints ? 1 : max(Self.pointsPerFit, ring.count / Self.newPointsShare)
        guard sinceFit >= due else { return false }
        sinceFit = 0
        return true
    }

    /// The line through the points, once they span 10 s and the rate is plausible;
    /// its level from the points of the settled segments not being levelled nor learnt,
    /// and the levels of those apart.
    /// - Parameters:
    ///   - settled: the timeline position of connection frame 0 of each settled segment.
    ///   - leveling: the segments whose positions are still being brought onto the line.
    ///   - learning: spliced segments whose arrivals' lag against the line is being learnt
    ///     (another path's: their positions are right, their arrivals' level is not yet).
    ///   - lags: how far below the line each segment's arrivals lie (frames), added to its
    ///     points' positions for the level: a spliced segment's, once learnt.
    ///   - all: the points kept (`points`), taken once by the caller, who may look at them
    ///     again (`LagStep`) without another copy on the playout thread.
    ///   - sparse: the points come a segment apart (`fewestSparsePoints`).
    mutating func fit(
        _ all: [Point], settled: [Int: Int64], leveling: Set<Int>, learning: Set<Int> = [], lags: [Int: Double] = [:],
        sparse: Bool = false
    ) -> Fit? {
        let fewest = sparse ? Self.fewestSparsePoints : Self.fewestFittedPoints
        guard Self.slope(of: all, weights: [:], fewest: fewest) != nil else { return nil }
        // The points too far below are found about the last fit's line (at first, the nominal
        // rate's), not about a line through all of them: a few deliveries 25-370 ms late among a
        // few dozen (an HLS connection's first segments, fetched as they were found) tilted it
        // by hundreds of ppm, and the late points were then judged against the tilt and kept.
        var slope = lastSlope ?? 1
        var kept = all
        var weights: [Int: Double] = [:]
        for _ in 0..<2 {
            let residuals = Self.residuals(of: all, slope: slope)
            let ordered = residuals.sorted()
            let median = ordered[ordered.count / 2]
            let deviations = residuals.map { abs($0 - median) }.sorted()
            let floor = median - 3 * 1.4826 * deviations[deviations.count / 2]
            kept = zip(all, residuals).filter { $0.1 >= floor }.map(\.0)
            weights = Self.weights(of: kept, slope: slope)
            guard let refitted = Self.slope(of: kept, weights: weights, fewest: fewest) else { break }
            slope = refitted
        }
        guard abs(slope - 1) * 1e6 <= Self.plausiblePpm else { return nil }
        lastSlope = slope
        var spread = Self.standardError(of: kept, slope: slope, weights: weights)
        if sparse { spread = max(spread, Self.sparseScatterFrames / Self.localSpread(of: kept)) }
        if let step = Self.batchingStep(of: kept, slope: slope) { batchingStep = step }
        var sums = (line: Fit.Centroid.Sum(), leveling: Fit.Centroid.Sum())
        var learnt: [Int: Fit.Centroid.Sum] = [:]
        for point in kept {
            guard let base = settled[point.segment] else { continue }
            // The level as the finer stamps put it: a batched point is raised by the step, so
            // the level does not move as one kind of point gives way to the other (a
            // connection's first two minutes, then an hour of batched seconds).
            let raised = point.beforeBatching ? 0 : Int64((batchingStep ?? 0).rounded())
            let timeline = base + point.stream + raised
            if leveling.contains(point.segment) {
                sums.leveling.add(local: point.local, timeline: timeline)
            } else if learning.contains(point.segment) {
                learnt[point.segment, default: Fit.Centroid.Sum()].add(local: point.local, timeline: timeline)
            } else {
                let lag = Int64((lags[point.segment] ?? 0).rounded())
                sums.line.add(local: point.local, timeline: timeline + lag)
            }
        }
        return Fit(
            rate: slope, ppmError: spread * 1e6, lineCentroid: sums.line.count >= 3 ? sums.line.centroid : nil,
            levelingCentroid: sums.leveling.count > 0 ? sums.leveling.centroid : nil,
            levelingPoints: sums.leveling.count, linePoints: sums.line.count,
            learningCentroids: learnt.mapValues { Fit.Learnt(centroid: $0.centroid, points: $0.count) })
    }

    /// Moves `segment`'s points from local frame `local` on (and the bin being filled) to
    /// `newSegment`: its lag changed there (`LagStep`).
    mutating func split(segment: Int, from local: Int64, into newSegment: Int) {
        for index in ring.indices where ring[index].segment == segment && ring[index].local >= local {
            ring[index].segment = newSegment
        }
        if filling?.segment == segment, let start = filling?.local, start >= local { filling?.segment = newSegment }
    }

    /// Whether any kept point belongs to `segment`.
    func holds(segment: Int) -> Bool { ring.contains { $0.segment == segment } }

    /// Least-squares slope of stream on local time, each group about its own means and
    /// weighed by `weights` (1 where none is given); nil while the points span less than
    /// `trustedSpanFrames` or are fewer than `fewest`.
    private static func slope(of points: [Point], weights: [Int: Double], fewest: Int) -> Double? {
        guard points.count >= fewest, let first = points.first?.local, let last = points.last?.local,
            last - first >= trustedSpanFrames
        else { return nil }
        let means = groupMeans(points)
        var products = 0.0, squares = 0.0
        for point in points {
            guard let mean = means[point.group] else { continue }
            let x = Double(point.local) - mean.local, weight = weights[point.group] ?? 1
            products += weight * x * (Double(point.stream) - mean.stream)
            squares += weight * x * x
        }
        return squares > 0 ? products / squares : nil
    }

    /// Each group's weight: the inverse of its points' scatter about `slope` (frames⁻²). A
    /// second of many stamps gives a tighter point than one of two: the first seconds of a
    /// connection, read as the bytes come, are ~10 times tighter than its batched reads, and
    /// weighed alike they would drown in them. A group of fewer than `weighedPoints` takes
    /// the scatter of all.
    private static func weights(of points: [Point], slope: Double) -> [Int: Double] {
        let residuals = Self.residuals(of: points, slope: slope)
        var sums: [Int: (squares: Double, count: Int)] = [:]
        var all = (squares: 0.0, count: 0)
        for (point, residual) in zip(points, residuals) {
            let sum = sums[point.group, default: (0, 0)]
            sums[point.group] = (sum.squares + residual * residual, sum.count + 1)
            all = (all.squares + residual * residual, all.count + 1)
        }
        // A frame's scatter at least: points on a perfect path would weigh without bound.
        let pooled = max(1, all.squares / Double(max(1, all.count - sums.count)))
        return sums.mapValues { sum in
            let variance = sum.count >= weighedPoints ? max(1, sum.squares / Double(sum.count - 1)) : pooled
            return 1 / variance
        }
    }

    /// How far each segment's batched points lie below its finer ones about the line of
    /// `slope` (frames), weighed by their counts; nil when no segment has `weighedPoints`
    /// of each.
    private static func batchingStep(of points: [Point], slope: Double) -> Double? {
        var levels: [Int: (sum: Double, count: Int)] = [:]
        for point in points {
            let level = Double(point.stream) - slope * Double(point.local)
            let sum = levels[point.group, default: (0, 0)]
            levels[point.group] = (sum.sum + level, sum.count + 1)
        }
        var steps = (sum: 0.0, weight: 0.0)
        for (group, fine) in levels where group % 2 == 1 && fine.count >= weighedPoints {
            guard let batched = levels[group - 1], batched.count >= weighedPoints else { continue }
            let weight = Double(min(fine.count, batched.count))
            steps = (
                steps.sum + weight * (fine.sum / Double(fine.count) - batched.sum / Double(batched.count)),
                steps.weight + weight
            )
        }
        return steps.weight > 0 ? steps.sum / steps.weight : nil
    }

    /// Points a group needs before its own scatter weighs it.
    static let weighedPoints = 5

    /// The standard error of `slope` (stream frames per local frame) from the points' scatter
    /// about their groups' lines, each group by its weight (the inverse of its scatter), widened
    /// by how alike neighbouring residuals are. Arrivals a second apart share their jitter (a
    /// path's queue, a server's burst draining, a TCP window opening), so n points carry the
    /// information of fewer: by the lag-1 autocorrelation ρ, n·(1 − ρ)/(1 + ρ). Without it,
    /// the first half-minute on a real loopback Icecast fitted −400 ppm "within 130" for a
    /// station on time, and the delay followed it (issue 67: a room's boxes 2-4 ms apart).
    private static func standardError(of points: [Point], slope: Double, weights: [Int: Double]) -> Double {
        let means = groupMeans(points)
        let residuals = Self.residuals(of: points, slope: slope)
        var squares = 0.0, sumOfSquares = 0.0
        for (point, residual) in zip(points, residuals) {
            let x = Double(point.local) - (means[point.group]?.local ?? 0), weight = weights[point.group] ?? 1
            squares += weight * x * x
            sumOfSquares += weight * residual * residual
        }
        // The weights' scale from the points themselves (1 where they are the inverse scatter).
        let freedom = Double(max(1, points.count - means.count - 1))
        var neighbours = 0.0
        for index in points.indices.dropFirst() where points[index].group == points[index - 1].group {
            neighbours += (weights[points[index].group] ?? 1) * residuals[index] * residuals[index - 1]
        }
        let rho = sumOfSquares > 0 ? min(max(neighbours / sumOfSquares, 0), maximumAutocorrelation) : 0
        let variance = sumOfSquares / freedom * (1 + rho) / (1 - rho)
        return squares > 0 ? (variance / squares).squareRoot() : .infinity
    }

    /// How widely the points' local times spread about their groups' means (frames: the root
    /// of the sum of squares): a slope through points scattered by s is known to s / this.
    private static func localSpread(of points: [Point]) -> Double {
        let means = groupMeans(points)
        let squares = points.reduce(0.0) { sum, point in
            let x = Double(point.local) - (means[point.group]?.local ?? 0)
            return sum + x * x
        }
        return squares > 0 ? squares.squareRoot() : .infinity
    }

    /// The most neighbouring residuals are taken to share (ρ): a line of points that all
    /// share their wander still counts as 1/39th of its points, not as none.
    static let maximumAutocorrelation = 0.95

    /// How far above its segment's fitted line each point lies (frames).
    private static func residuals(of points: [Point], slope: Double) -> [Double] {
        let means = groupMeans(points)
        return points.map { point in
            guard let mean = means[point.group] else { return 0 }
            return Double(point.stream) - mean.stream - slope * (Double(point.local) - mean.local)
        }
    }

    private static func groupMeans(_ points: [Point]) -> [Int: (local: Double, stream: Double)] {
        var sums: [Int: (local: Double, stream: Double, count: Double)] = [:]
        for point in points {
            let sum = sums[point.group, default: (0, 0, 0)]
            sums[point.group] = (sum.local + Double(point.local), sum.stream + Double(point.stream), sum.count + 1)
        }
        return sums.mapValues { ($0.local / $0.count, $0.stream / $0.count) }
    }
}
