import DelayboxSimulation
import Testing

@testable import DelayboxEngine

/// The station's clock from arrival times alone (issue 58), fed as the engine feeds it:
/// each packet's arrival (local frames) and the end of the audio it carried (frames of
/// its connection).
@Suite(.timeLimit(.minutes(10))) struct StationClockTests {
    static let rate = Double(AudioFormat.sampleRate)

    /// Feeds `seconds` of 24 ms packets of a station `ppm` off, one connection per entry of
    /// `connections` (its start in s), each arriving `lateMs(second)` after it was live.
    static func fed(
        ppm: Double, seconds: Double, connections: [Double] = [0], packetMs: Double = 24,
        lateMs: (Double) -> Double
    ) -> StationClock {
        var clock = StationClock()
        var segment = 0
        var next = connections.dropFirst()
        var zero = 0.0  // stream seconds at this connection's timestamp 0
        var t = packetMs / 1000
        var arrived = 0.0
        while t < seconds {
            if let start = next.first, t >= start {
                next = next.dropFirst()
                segment += 1
                zero = t * (1 + ppm / 1e6)
            }
            let stream = t * (1 + ppm / 1e6) - zero
            // In order, as a stream's bytes are read: a late packet holds back the next.
            arrived = max(arrived, t + lateMs(t) / 1000)
            _ = clock.observe(
                segment: segment, local: Int64(arrived * rate), stream: Int64((stream * rate).rounded()))
            t += packetMs / 1000
        }
        return clock
    }

    @Test(arguments: [0.0, 47.0, -120.0, 500.0])
    func aSteadyPathGivesTheStationsRate(ppm: Double) throws {
        let fit = try #require(Self.fed(ppm: ppm, seconds: 600) { _ in 20 }.fitted(settled: [:], leveling: []))
        #expect(abs(fit.ppm - ppm) < 0.1, "\(fit.ppm) ppm")
    }

    /// A connection's first seconds are read as the bytes come, the rest in batches: a
    /// second's least lag then lies a few ms higher (here 6 ms, and scattered 5 times wider).
    /// As one line that step read as a rate (issue 67: −400 ppm on a loopback Icecast for a
    /// station on time); the first seconds are a line's intercept of their own, weighed by
    /// their tighter scatter, and the level is theirs (the batched points raised by the step).
    @Test func theFirstSecondsFinerStampsAreALineOfTheirOwn() throws {
        var random = SplitMix64(seed: 3)
        func fed(apart: Bool) -> StationClock {
            var clock = StationClock()
            for second in 0..<40 {
                let batched = second >= 10
                let lateFrames = batched ? 288 + Int64(random.next() % 240) : Int64(random.next() % 48)
                let local = Int64(second) * Int64(Self.rate) + 500
                _ = clock.observe(
                    segment: 0, local: local + lateFrames, stream: local, beforeBatching: apart && !batched)
            }
            return clock
        }
        let joined = try #require(fed(apart: false).fitted(settled: [0: 0], leveling: []))
        let apart = try #require(fed(apart: true).fitted(settled: [0: 0], leveling: []))
        #expect(abs(joined.ppm) > 100, "as one line: \(joined.ppm) ppm")
        #expect(abs(apart.ppm) < 3 * apart.ppmError && abs(apart.ppm) < 60, "\(apart.ppm) ± \(apart.ppmError) ppm")
        // The level as the finer stamps put it (0-1 ms late), the batched points (6-11 ms)
        // raised by the step between them: it does not move as one kind gives way to the other.
        let level = try #require(apart.level)
        #expect(level < 0 && level > -60, "\(level) frames")
    }

    /// Reconnects start each connection's timestamps at 0 again: each is a segment of its
    /// own, and the rate comes through them all.
    @Test func reconnectsAndJitterStillGiveTheRate() throws {
        var random = SplitMix64(seed: 7)
        let clock = Self.fed(ppm: -80, seconds: 1_800, connections: [0, 400, 410, 1_200]) { _ in
            20 + Double(random.next() % 200)
        }
        let fit = try #require(clock.fitted(settled: [:], leveling: []))
        #expect(abs(fit.ppm + 80) < 2, "\(fit.ppm) ppm")
    }

    /// HLS: a segment of 6 s of the station's audio arrives whole once it is done; its
    /// newest packet makes the point.
    @Test func segmentsArrivingWholeGiveTheRate() throws {
        let ppm = 150.0
        let clock = Self.fed(ppm: ppm, seconds: 1_200) { t in
            let segmentEnd = ((t * (1 + ppm / 1e6)) / 6).rounded(.up) * 6 / (1 + ppm / 1e6)
            return (segmentEnd - t) * 1000 + 300
        }
        let fit = try #require(clock.fitted(settled: [:], leveling: []))
        #expect(abs(fit.ppm - ppm) < 1, "\(fit.ppm) ppm")
    }

    /// A live HLS connection's first segments come late — the one listed when it connected,
    /// then those found while the box learns when segments appear: 25-370 ms on air. Judged
    /// against a line through all points, they tilted it (370 ppm for a station 200 ppm
    /// fast after two minutes of 6 s segments, 550 at one and a half) and stayed in; judged
    /// against the nominal rate, they are left out.
    @Test func anHLSConnectionsLateFirstSegmentsDoNotTiltTheRate() throws {
        let ppm = 200.0
        let scatter: [Double] = [0, 4, -3, 6, -5, 2, -1, 5, -4, 3]
        let clock = Self.fed(ppm: ppm, seconds: 120) { t in
            let segment = ((t * (1 + ppm / 1e6)) / 6).rounded(.up)
            // Delivered when its last packet (24 ms ones) has been live, 30 ms and more later.
            let lastPacketEnd = (segment * 6 / (1 + ppm / 1e6) / 0.024).rounded(.down) * 0.024
            let first: [Double] = [27, 368, 25]
            let late = Int(segment) <= first.count ? first[Int(segment) - 1] : scatter[Int(segment) % scatter.count]
            return (lastPacketEnd - t) * 1000 + 30 + late
        }
        let fit = try #require(clock.fitted(settled: [:], leveling: []))
        #expect(abs(fit.ppm - ppm) < 60, "\(fit.ppm) ± \(fit.ppmError) ppm")
    }

    /// Points a segment apart are fitted from six (a minute of 10 s segments), and the rate
    /// followed is the fit's weighed by its doubt against how far stations are off: most of
    /// a station 200 ppm fast from the first fit, where waiting for three standard errors
    /// let the heard delay slide for two minutes. Each point counts as scattered by 3 ms at
    /// least, so a lucky few do not make a sure rate.
    @Test func aPointASegmentIsFollowedFromTheFirstFitWeighedByItsDoubt() throws {
        let ppm = 200.0
        let scatter: [Double] = [0, 2, -1, 3, -2, 1]
        let clock = Self.fed(ppm: ppm, seconds: 65) { t in
            let segment = ((t * (1 + ppm / 1e6)) / 10).rounded(.up)
            let lastPacketEnd = (segment * 10 / (1 + ppm / 1e6) / 0.024).rounded(.down) * 0.024
            return (lastPacketEnd - t) * 1000 + 30 + scatter[Int(segment) % scatter.count]
        }
        #expect(clock.fitted(settled: [:], leveling: []) == nil, "ten points for a byte stream's")
        let fit = try #require(clock.fitted(settled: [:], leveling: [], sparse: true))
        // Six points 10 s apart spread ±25 s about their mean: Σx² = 1,750 s².
        let floor = StationClock.sparseScatterFrames / (Self.rate * (1_750.0).squareRoot()) * 1e6
        #expect(fit.ppmError >= floor * 0.99, "\(fit.ppmError) ppm, at least the floor's \(floor)")
        #expect(
            (140...230).contains(fit.weighed.ppm), "\(fit.ppm) ± \(fit.ppmError) ppm followed as \(fit.weighed.ppm)")
        // The weighing itself: a fit as doubtful as stations are spread is followed halfway.
        let even = StationClock.Fit(rate: 1 + 200e-6, ppmError: StationClock.stationSpreadPpm)
        #expect(abs(even.weighed.ppm - 100) < 1e-6)
    }

    /// A stream delivered in 10 s segments gives a point a segment: its first two or three
    /// say nothing of the rate (an HLS station on time was read as −905 ppm at 20 s and
    /// followed); ten of them give one, which knows its doubt: not followed.
    @Test func segmentsOfTenSecondsNeedTenPointsForARate() throws {
        let whole = { (t: Double) in ((t / 10).rounded(.up) * 10 - t) * 1000 + 300 }
        #expect(Self.fed(ppm: 0, seconds: 35, lateMs: whole).fitted(settled: [:], leveling: []) == nil)
        let fit = try #require(Self.fed(ppm: 0, seconds: 125, lateMs: whole).fitted(settled: [:], leveling: []))
        #expect(!fit.isEvident, "\(fit.ppm) ± \(fit.ppmError) ppm")
    }

    /// Ten seconds of points before the first word (issue 67: it was two minutes, and the
    /// heard delay slid by the station's error until then); whether the rate is followed is
    /// the fit's own uncertainty's to say (`isEvident`). A rate no crystal has is not taken.
    @Test func aRateNeedsTenSecondsAndMustBePlausible() {
        #expect(Self.fed(ppm: 50, seconds: 9) { _ in 20 }.fitted(settled: [:], leveling: []) == nil)
        #expect(Self.fed(ppm: 50, seconds: 13) { _ in 20 }.fitted(settled: [:], leveling: []) != nil)
        #expect(Self.fed(ppm: 3_000, seconds: 600) { _ in 20 }.fitted(settled: [:], leveling: []) == nil)
    }

    /// Lag is only ever added: a congested half minute is left out of the line.
    @Test func aCongestedHalfMinuteIsLeftOut() throws {
        let clock = Self.fed(ppm: 30, seconds: 900) { t in t > 600 && t < 630 ? 320 : 20 }
        let fit = try #require(clock.fitted(settled: [0: 0], leveling: []))
        #expect(abs(fit.ppm - 30) < 0.5, "\(fit.ppm) ppm")
        // The line's level: the packets' ends 20 ms late on the timeline (base 0).
        let level = try #require(fit.level)
        #expect(abs(level + 0.020 * Self.rate * (1 + 30e-6)) < 24, "\(level) frames")
    }

    /// A placement by time being levelled is apart from the line it is levelled onto.
    @Test func aSegmentBeingLevelledIsMeasuredApart() throws {
        let clock = Self.fed(ppm: 0, seconds: 600, connections: [0, 300]) { _ in 20 }
        // The second connection placed 30 ms (1440 frames) too early on the timeline.
        let second = Int64(300 * Self.rate) - 1_440
        let fit = try #require(clock.fitted(settled: [0: 0, 1: second], leveling: [1]))
        let line = try #require(fit.level), own = try #require(fit.levelingLevel)
        #expect(abs((line - own) - 1_440) < 50, "\(line - own) frames apart")
        #expect(fit.levelingPoints > 250)
    }
}

extension StationClock {
    /// A fit of a copy: the tests' clocks are values they only look at.
    func fitted(settled: [Int: Int64], leveling: Set<Int>, sparse: Bool = false) -> Fit? {
        var copy = self
        return copy.fit(copy.points, settled: settled, leveling: leveling, sparse: sparse)
    }
}
