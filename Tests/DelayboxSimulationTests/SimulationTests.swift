import DelayboxEngine
import DelayboxSimulation
import DelayboxTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct SimulationTests {
    func scenario(minutes: Int64, delayS: Int64 = 60) -> SimulationScenario {
        var scenario = SimulationScenario()
        scenario.duration = .milliseconds(minutes * 60_000)
        scenario.delay = .milliseconds(delayS * 1000)
        return scenario
    }

    @Test func outagesLoseOnlyWhatTheServerNeverResent() throws {
        var scenario = scenario(minutes: 8)
        scenario.outages = [.init(at: .minutes(2), length: .seconds(3)), .init(at: .minutes(4), length: .seconds(10))]
        let report = try Simulation(scenario).run()
        #expect(abs(report.lostMs - 6_000) <= 24, "the 10 s outage minus the 4 s burst, within a packet")
        #expect(report.lostMs == report.lostMsExpected, "exactly what the server never delivered")
        #expect(report.gapsMs == 0)
        #expect(report.underruns == 0)
        #expect(report.splices == 1)
        #expect(report.delayErrorMsMax < 0.01)
        #expect(report.delayChecks > 20_000)
        #expect(report.finalState == "playing")
    }

    @Test func aShortOutageIsSampleIdenticalToAnUninterruptedRun() throws {
        var clean = scenario(minutes: 2)
        clean.recordOutput = true
        var interrupted = clean
        interrupted.outages = [.init(at: .seconds(65), length: .seconds(3))]
        let reference = try Simulation(clean)
        _ = reference.run()
        let dropped = try Simulation(interrupted)
        let report = dropped.run()
        #expect(report.splices == 1)
        #expect(SignalChecks.firstDifference(dropped.output, reference.output) == nil)
        #expect(dropped.output.count == reference.output.count)
    }

    @Test func eventsTakeEffectAtTheJackWithinAMillisecondOfTheirDelayedTime() throws {
        var scenario = scenario(minutes: 5)
        scenario.events = [
            .init(at: .seconds(90), event: .streamerMuted),
            .init(at: .minutes(2), event: .streamerUnmuted),
            .init(
                at: .seconds(150), event: .adBreak(AdBreak(audioURL: "file:///ads/half-time.mp3", durationMs: 30_000))),
            .init(at: .seconds(200), event: .title("Second half")),
        ]
        scenario.outages = [.init(at: .seconds(100), length: .seconds(2))]  // resends the mute: it must fire once
        let report = try Simulation(scenario).run()
        #expect(report.events.count == 4)
        for event in report.events {
            #expect(event.transition == "reached")
            let error = try #require(event.firedErrorMs)
            #expect(abs(error) < 1, "\(event.kind) at \(event.streamMs) ms off by \(error) ms")
        }
    }

    @Test func networkJitterDoesNotMoveTheDelay() throws {
        var scenario = scenario(minutes: 5, delayS: 10)
        scenario.jitter = .milliseconds(80)
        scenario.outages = [.init(at: .seconds(100), length: .seconds(2))]
        let report = try Simulation(scenario).run()
        #expect(report.underruns == 0)
        #expect(report.gapsMs == 0)
        #expect(report.delayErrorMsMax < 5)
    }

    /// 100 ppm is 6 ms a minute: without correction 120 ms in these 20 minutes. Slipping
    /// single frames keeps the heard delay within a fraction of a millisecond, with no
    /// jump, no gap, and the drift measured.
    @Test(arguments: [(100.0, 0), (-100.0, 0), (100.0, 40), (-100.0, 40)])
    func dacDriftIsCorrectedContinuously(driftPpm: Double, jitterMs: Int64) throws {
        var scenario = scenario(minutes: 20)
        scenario.driftPpm = driftPpm
        scenario.jitter = .milliseconds(jitterMs)
        let report = try Simulation(scenario).run()
        #expect(report.resyncs == 0)
        #expect(report.delayErrorMsMax < 2, "max \(report.delayErrorMsMax) ms")
        #expect(report.delayErrorMsP99 < 1, "p99 \(report.delayErrorMsP99) ms")
        #expect(report.gapsMs == 0)
        #expect(abs(report.driftPpmMeasured - driftPpm) < 10, "measured \(report.driftPpmMeasured) ppm")
        let expectedSlips = abs(driftPpm) * 1e-6 * 20 * 60 * 48_000
        #expect(
            abs(Double(report.driftSlips) - expectedSlips) < expectedSlips * 0.1, "\(report.driftSlips) frames slipped")
    }

    @Test func withoutDriftNothingIsSlipped() throws {
        let report = try Simulation(scenario(minutes: 5)).run()
        #expect(report.driftSlips == 0)
        #expect(report.delayErrorMsMax < 0.1)
    }

    @Test func listenerPausesAndDelayChangesRunThroughTheSameEngine() throws {
        var scenario = scenario(minutes: 6, delayS: 10)
        scenario.events = [.init(at: .seconds(200), event: .streamerMuted)]
        scenario.pauses = [(at: .minutes(1), length: .minutes(2))]  // delay grows to 130 s
        scenario.delayChanges = [(at: .minutes(5), delay: .seconds(20))]  // jumps over the mute
        let report = try Simulation(scenario).run()
        #expect(report.finalDelayMs == 20_000)
        #expect(report.events.first?.transition == "executedByJump")
        #expect(report.stateChanges.map(\.to).contains("paused"))
        #expect(report.gapsMs == 0)
        #expect(report.underruns == 0)
        #expect(report.delayErrorMsMax < 1)
    }

    @Test func runsAreDeterministic() throws {
        var scenario = scenario(minutes: 3, delayS: 5)
        scenario.jitter = .milliseconds(30)
        scenario.outages = [.init(at: .minutes(1), length: .seconds(7))]
        let first = try Simulation(scenario).run().jsonString()
        let second = try Simulation(scenario).run().jsonString()
        #expect(first == second)
    }

    @Test func theSimulatedServerKnowsWhatItNeverResent() {
        let network = SimulatedNetwork(
            packetFrames: 1_152, packetBytes: 384, latency: .milliseconds(20), jitter: .zero, burst: .seconds(4),
            connectAt: .seconds(10), outages: [.init(at: .seconds(100), length: .seconds(10))],
            events: [], seed: 1)
        let lost = network.lostPackets()
        #expect(lost.count == 1)
        #expect(abs(lost[0].count * 24 - 6_000) <= 24)
    }
}
