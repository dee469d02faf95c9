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
    }

    /// The line through the points: the station's rate, and where the line lies on the
    /// timeline (`level + rate · local`) when some segment's base is known.
    struct Fit: Equatable {
        /// Stream frames per local frame.
        var rate: Double
        /// The standard error of `ppm`.
        var ppmError: Double
        /// The timeline position of the line at local frame 0; nil until a settled
        /// placement's points are in the fit.
        var level: Double?
        /// Where the points of the segments being levelled lie (as `level`), and how many.
        var levelingLevel: Double?
        var levelingPoints = 0
        /// The station's error (ppm; positive: it runs fast).
        var ppm: Double { (rate - 1) * 1e6 }
        /// Whether the arrivals show the error beyond their own scatter (three standard
        /// errors): followed from then on. A station on time is then left alone, where
        /// following the first minutes' noise would move its delay by milliseconds.
        var isEvident: Bool { abs(ppm) > 3 * ppmError }

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
    /// minute at 3-5 minutes on air).
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

    init() { ring.reserveCapacity(Self.keptPoints) }

    /// How many points are kept.
    var pointCount: Int { ring.count }

    /// The points kept, oldest first.
    var points: [Point] { Array(ring[oldest...] + ring[..<oldest]) }

    /// Takes a packet that arrived `local` frames after the origin with audio up to
    /// connection frame `stream` of segment `segment`. Returns true when a fit is due.
    mutating func observe(segment: Int, local: Int64, stream: Int64) -> Bool {
        let point = Point(segment: segment, local: local, stream: stream)
        guard let current = filling else {
            filling = point
            return false
        }
        if current.segment == segment, current.local / Self.binFrames == local / Self.binFrames {
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
    /// its level from the points of the settled segments not being levelled, and the
    /// level of those being levelled apart.
    /// - Parameters:
    ///   - settled: the timeline position of connection frame 0 of each settled segment.
    ///   - leveling: the segments whose positions are still being brought onto the line.
    func fit(settled: [Int: Int64], leveling: Set<Int>) -> Fit? {
        let all = points
        guard var slope = Self.slope(of: all) else { return nil }
        var kept = all
        for _ in 0..<2 {
            let residuals = Self.residuals(of: all, slope: slope)
            let ordered = residuals.sorted()
            let median = ordered[ordered.count / 2]
            let deviations = residuals.map { abs($0 - median) }.sorted()
            let floor = median - 3 * 1.4826 * deviations[deviations.count / 2]
            kept = zip(all, residuals).filter { $0.1 >= floor }.map(\.0)
            guard let refitted = Self.slope(of: kept) else { break }
            slope = refitted
        }
        guard abs(slope - 1) * 1e6 <= Self.plausiblePpm else { return nil }
        let spread = Self.standardError(of: kept, slope: slope)
        var sums = (line: 0.0, lineCount: 0, leveling: 0.0, levelingCount: 0)
        for point in kept {
            guard let base = settled[point.segment] else { continue }
            let level = Double(base + point.stream) - slope * Double(point.local)
            if leveling.contains(point.segment) {
                sums.leveling += level
                sums.levelingCount += 1
            } else {
                sums.line += level
                sums.lineCount += 1
            }
        }
        return Fit(
            rate: slope, ppmError: spread * 1e6, level: sums.lineCount >= 3 ? sums.line / Double(sums.lineCount) : nil,
            levelingLevel: sums.levelingCount > 0 ? sums.leveling / Double(sums.levelingCount) : nil,
            levelingPoints: sums.levelingCount)
    }

    /// Whether any kept point belongs to `segment`.
    func holds(segment: Int) -> Bool { ring.contains { $0.segment == segment } }

    /// Least-squares slope of stream on local time, each segment about its own means; nil
    /// while the points span less than `trustedSpanFrames`.
    private static func slope(of points: [Point]) -> Double? {
        guard let first = points.first?.local, let last = points.last?.local, last - first >= trustedSpanFrames
        else { return nil }
        let means = segmentMeans(points)
        var products = 0.0, squares = 0.0
        for point in points {
            guard let mean = means[point.segment] else { continue }
            let x = Double(point.local) - mean.local
            products += x * (Double(point.stream) - mean.stream)
            squares += x * x
        }
        return squares > 0 ? products / squares : nil
    }

    /// The standard error of `slope` (stream frames per local frame) from the scatter of
    /// `points` about their segments' lines. Arrivals a second apart share their jitter, so
    /// it is an underestimate; the engine asks for three of them.
    private static func standardError(of points: [Point], slope: Double) -> Double {
        let means = segmentMeans(points)
        let residuals = Self.residuals(of: points, slope: slope)
        let squares = points.reduce(0.0) { sum, point in
            let x = Double(point.local) - (means[point.segment]?.local ?? 0)
            return sum + x * x
        }
        let freedom = Double(max(1, points.count - means.count - 1))
        let variance = residuals.reduce(0.0) { $0 + $1 * $1 } / freedom
        return squares > 0 ? (variance / squares).squareRoot() : .infinity
    }

    /// How far above its segment's fitted line each point lies (frames).
    private static func residuals(of points: [Point], slope: Double) -> [Double] {
        let means = segmentMeans(points)
        return points.map { point in
            guard let mean = means[point.segment] else { return 0 }
            return Double(point.stream) - mean.stream - slope * (Double(point.local) - mean.local)
        }
    }

    private static func segmentMeans(_ points: [Point]) -> [Int: (local: Double, stream: Double)] {
        var sums: [Int: (local: Double, stream: Double, count: Double)] = [:]
        for point in points {
            let sum = sums[point.segment, default: (0, 0, 0)]
            sums[point.segment] = (sum.local + Double(point.local), sum.stream + Double(point.stream), sum.count + 1)
        }
        return sums.mapValues { ($0.local / $0.count, $0.stream / $0.count) }
    }
}
