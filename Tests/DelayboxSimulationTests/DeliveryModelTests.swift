import DelayboxEngine
import DelayboxSimulation
import Testing

/// Issue 67: stations as they are delivered, in `delaybox simulate` — each model's
/// deliveries as a client sees them, then the box on them, in virtual time.
@Suite(.timeLimit(.minutes(10))) struct DeliveryModelTests {
    /// A network of 24 ms packets, connected 30 s into the source, delivered as `model` says.
    static func network(_ model: SimulatedNetwork.DeliveryModel, jitter: TimeAmount = .zero) -> SimulatedNetwork {
        SimulatedNetwork(
            packetFrames: 1_152, packetBytes: 384, latency: .milliseconds(20), jitter: jitter, burst: .seconds(4),
            connectAt: .seconds(30), outages: [], events: [], model: model, seed: 7)
    }

    /// Each packet as it arrives (source packet index, arrival), for `seconds` of arrivals.
    static func arrivals(_ network: inout SimulatedNetwork, seconds: Int64) -> [(index: Int64, at: Instant)] {
        var arrivals: [(index: Int64, at: Instant)] = []
        while network.nextTime() < Instant.seconds(Double(30 + seconds)) {
            let (time, delivery) = network.next()
            if case .packet(let index, _, _) = delivery { arrivals.append((index, time)) }
        }
        return arrivals
    }

    /// HLS of 6 s segments: the connection brings three whole segments at once, then each
    /// segment comes whole at the box's first playlist poll after it was made — within the
    /// dense polls' 15 ms once the first has been seen, about 6 s apart, never before.
    @Test func anHLSStreamComesASegmentAtATimeSoonAfterItIsListed() {
        var model = SimulatedNetwork.DeliveryModel()
        model.hlsSegment = .seconds(6)
        var network = Self.network(model)
        let arrivals = Self.arrivals(&network, seconds: 60)
        let times: [Instant] = Array(Set(arrivals.map(\.at))).sorted()
        let gaps: [Int64] = zip(times.dropFirst(), times).map { ($0 - $1).nanoseconds / 1_000_000 }
        #expect(gaps.dropFirst(2).allSatisfy { (5_985...6_015).contains($0) }, "\(gaps)")
        let lateness: [Int64] = times.dropFirst(3).map { time in
            let newest = arrivals.last { $0.at == time }!.index
            return (time - network.productionTime(of: newest)).nanoseconds / 1_000_000 - 20
        }
        #expect(lateness.allSatisfy { (0...15).contains($0) }, "ms after listing, beyond the 20 ms path: \(lateness)")
        let first = arrivals.filter { $0.at == times[0] }
        // At 30 s five whole segments are made (0-30 s): the newest three, 12-30 s, come at once.
        #expect(first.first?.index == 2 * 250 && first.count == 3 * 250, "\(first.count)")
        for (index, at) in arrivals { #expect(at >= network.productionTime(of: index), "packet \(index) early") }
        #expect(zip(arrivals.dropFirst(), arrivals).allSatisfy { $0.index == $1.index + 1 }, "in order, none lost")
    }

    /// A path change moves every later packet's latency, and only those.
    @Test func aPathChangeMovesTheLatencyFromItsMoment() {
        var model = SimulatedNetwork.DeliveryModel()
        model.pathChanges = [.init(at: .seconds(40), latency: .milliseconds(120))]
        var network = Self.network(model)
        let lags: [(made: Instant, lagMs: Int64)] = Self.arrivals(&network, seconds: 20).map {
            (
                network.productionTime(of: $0.index),
                ($0.at - network.productionTime(of: $0.index)).nanoseconds / 1_000_000
            )
        }
        let before = lags.filter { $0.made >= Instant.seconds(31) && $0.made < Instant.seconds(40) }
        let after = lags.filter { $0.made >= Instant.seconds(40) }
        #expect(!before.isEmpty && before.allSatisfy { $0.lagMs == 20 })
        #expect(!after.isEmpty && after.allSatisfy { $0.lagMs == 120 })
    }

    /// A heavy tail: most packets a little late, a few very late (those hold back the ones
    /// behind them: in order), none beyond the cap.
    @Test func aHeavyTailIsMostlySmallAndSometimesLarge() {
        var model = SimulatedNetwork.DeliveryModel()
        model.jitterTail = .milliseconds(10)
        var network = Self.network(model)
        let lags: [Int64] = Self.arrivals(&network, seconds: 600).dropFirst(200).map {
            ($0.at - network.productionTime(of: $0.index)).nanoseconds / 1_000_000
        }.sorted()
        let median = lags[lags.count / 2], p999 = lags[lags.count * 999 / 1_000]
        #expect(median >= 20 && median <= 40, "median \(median) ms")
        #expect(p999 >= 150, "the tail: p99.9 \(p999) ms")
        #expect(lags.last ?? 0 <= 20 + 10 * 50 + 50, "the cap: \(lags.last ?? 0) ms")
    }

    /// A variable bitrate: speech's packets half the nominal size, music's half as large again.
    @Test func aVariableBitrateAlternatesPassages() {
        var model = SimulatedNetwork.DeliveryModel()
        model.variableBitrate = true
        let network = Self.network(model)
        let second = Int64(48_000 / 1_152)
        #expect(network.payload(of: 0).count == 192 && network.payload(of: 12 * second).count == 576)
        #expect(Self.network(SimulatedNetwork.DeliveryModel()).payload(of: 12 * second).count == 384)
    }
}

extension DeliveryModelTests {
    /// A reconnect to another edge of the CDN (its path 100 ms longer): the splice places
    /// the new connection's audio by its content, so the heard delay does not move — its
    /// arrivals' new lag is learnt, not taken for the station's (issue 67: it moved 74 ms in
    /// 15 minutes, towards all of the path's change).
    @Test func aReconnectToAFartherEdgeKeepsTheDelay() throws {
        var scenario = SimulationScenario()
        (scenario.duration, scenario.delay, scenario.stationPpm) = (.minutes(30), .minutes(1), 200)
        scenario.delivery.pathChanges = [.init(at: .seconds(300), latency: .milliseconds(120))]
        scenario.outages = [.init(at: .minutes(5), length: .seconds(2))]
        scenario.measureFrom = .minutes(1)
        let report = try Simulation(scenario).run()
        #expect(report.splices == 1 && report.lostMs == 0)
        let levels = report.delayErrorMsByMinute.filter { $0.minute >= 1 }
        let lowest = levels.map(\.minMs).min() ?? .nan, highest = levels.map(\.maxMs).max() ?? .nan
        #expect(highest - lowest <= 2, "the heard delay moved \(lowest)…\(highest) ms")
        #expect(abs((report.stationPpmMeasured ?? 0) - 200) < 2, "\(report.stationPpmMeasured ?? .nan) ppm")
    }
}

extension DeliveryModelTests {
    /// A live HLS station 200 ppm fast, joined 4 s into a 6 s segment (issue 67): the box
    /// fetches each segment as it is listed, so the station's rate shows and is followed —
    /// from minute 2 the heard delay holds within a few ms of where it ends (it slid 12 ms
    /// a minute) — and the connection is placed by its first prompt delivery, not by the
    /// segments listed before it came (425 ms off, for good). A point a segment is followed
    /// from the first fit, weighed by its doubt (`StationClock.Fit.weighed`): waiting until
    /// the rate was evident, 10 s segments of a station 100 ppm fast moved 11.9 ms from
    /// minute 2 (weighed: 5.1), 50 ppm slow 8.3 (4.0). Live is then held above the line by
    /// where the first fit put it: redrawn through the placement by each fit until 120
    /// points, live moved by each rate's error times the minutes since (from minute 2, 10 s
    /// segments: on time 8.0 ms, 100 ppm fast 5.1, 200 fast 4.3; held: 3.6, 3.2, 3.7).
    @Test(
        arguments: [(6, 200, 2), (10, 200, 5), (10, 500, 5), (10, -200, 5), (10, 100, 5), (10, 0, 5)]
            as [(Int64, Double, Double)])
    func aLiveHLSStationIsFollowedAndPlacedByItsPromptDeliveries(segmentSeconds: Int64, ppm: Double, withinMs: Double)
        throws
    {
        var scenario = SimulationScenario()
        (scenario.duration, scenario.delay, scenario.stationPpm) = (.minutes(10), .minutes(1), ppm)
        (scenario.jitter, scenario.sourceLead) = (
            .milliseconds(3), .milliseconds(10_000 + 4_000 * (segmentSeconds / 6 - 1))
        )
        scenario.delivery.hlsSegment = .seconds(segmentSeconds)
        let report = try Simulation(scenario).run()
        #expect(report.lostMs == 0 && report.underruns == 0)
        #expect(abs((report.stationPpmMeasured ?? 0) - ppm) < 10, "\(report.stationPpmMeasured ?? .nan) ppm")
        let minutes = report.delayErrorMsByMinute
        let final = (minutes.last.map { ($0.minMs + $0.maxMs) / 2 }) ?? .nan
        let later = minutes.filter { $0.minute >= 2 }
        let worst = later.map { max(abs($0.minMs - final), abs($0.maxMs - final)) }.max() ?? .nan
        #expect(
            worst <= withinMs, "\(segmentSeconds) s segments, \(ppm) ppm: from minute 2 within \(worst) ms of \(final)")
        #expect(abs(final) <= 30, "\(segmentSeconds) s segments: placed \(final) ms off the set delay")
    }
}

extension DeliveryModelTests {
    /// A route 100 ms longer from minute 5, inside one connection (issue 67: read as the
    /// station's rate, it moved the heard delay 150 ms over ten minutes, then back): the
    /// step is found after it has held half a minute, the points after it learn their lag
    /// apart, and the heard delay holds.
    @Test func aRouteChangeInsideAConnectionKeepsTheDelay() throws {
        var scenario = SimulationScenario()
        (scenario.duration, scenario.delay, scenario.stationPpm) = (.minutes(15), .minutes(1), 200)
        scenario.delivery.pathChanges = [.init(at: .seconds(300), latency: .milliseconds(120))]
        scenario.measureFrom = .minutes(1)
        let report = try Simulation(scenario).run()
        #expect(report.lostMs == 0 && report.splices == 0)
        #expect(report.lagSteps == 1, "one step found: \(report.lagSteps)")
        let levels = report.delayErrorMsByMinute.filter { $0.minute >= 1 }
        let lowest = levels.map(\.minMs).min() ?? .nan, highest = levels.map(\.maxMs).max() ?? .nan
        #expect(highest - lowest <= 2, "the heard delay moved \(lowest)…\(highest) ms")
        #expect(abs((report.stationPpmMeasured ?? 0) - 200) < 2, "\(report.stationPpmMeasured ?? .nan) ppm")
    }
}
