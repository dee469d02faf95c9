import DelayboxSimulation
import Testing

@testable import DelayboxEngine

/// A step in one connection's arrival lag (issue 67: a route change inside a connection
/// read as the station's rate moved the heard delay 150 ms): found when it holds, where it
/// began, and not in a path's ordinary jitter or a congested quarter minute.
@Suite(.timeLimit(.minutes(10))) struct LagStepTests {
    static let rate = 48_000.0

    /// A point a second for `seconds` s, lag `lag(second)` ms plus up to `jitterMs` of
    /// jitter, the station 200 ppm fast.
    static func points(seconds: Int, jitterMs: Double, seed: UInt64 = 1, lag: (Int) -> Double)
        -> [StationClock.Point]
    {
        var random = SplitMix64(seed: seed)
        return (0..<seconds).map { second in
            let local = Int64(second) * Int64(rate)
            let late = (lag(second) + Double.random(in: 0...jitterMs, using: &random)) * rate / 1_000
            let stream = Int64(Double(local) * 1.000_2 - late)
            return StationClock.Point(segment: 3, local: local, stream: stream)
        }
    }

    static func begins(_ points: [StationClock.Point]) -> Int64? {
        LagStep.begins(in: points, segment: 3, slope: 1.000_2, batchingStep: nil)
    }

    @Test func findsARouteChangeWhereItBeganOnceItHolds() {
        for (step, jitter) in [(100.0, 20.0), (-60.0, 10.0), (25.0, 2.0)] {
            let points = Self.points(seconds: 400, jitterMs: jitter) { $0 >= 360 ? 50 + step : 50 }
            #expect(Self.begins(Array(points.prefix(375))) == nil, "\(step) ms: 15 s is not yet a step")
            #expect(Self.begins(points) == 360 * Int64(Self.rate), "\(step) ms over \(jitter) ms of jitter")
        }
    }

    @Test func leavesJitterAndAPassingCongestionAlone() {
        for seed: UInt64 in 1...20 {
            let steady = Self.points(seconds: 900, jitterMs: 80, seed: seed) { _ in 30 }
            for end in stride(from: 60, through: 900, by: 10) {
                #expect(Self.begins(Array(steady.prefix(end))) == nil, "seed \(seed), \(end) s of 0-80 ms jitter")
            }
            let congested = Self.points(seconds: 400, jitterMs: 10, seed: seed) { (340..<365).contains($0) ? 200 : 30 }
            #expect(Self.begins(congested) == nil, "a congested 25 s that passed")
        }
        // Another segment's points are not this one's.
        let other = Self.points(seconds: 400, jitterMs: 5) { $0 >= 300 ? 150 : 50 }.map {
            StationClock.Point(segment: $0.local >= 300 * 48_000 ? 4 : 3, local: $0.local, stream: $0.stream)
        }
        #expect(Self.begins(other) == nil)
    }
}
