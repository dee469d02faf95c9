import DelayboxEngine
import DelayboxSimulation
import DelayboxTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct SimulationTests {
    func scenario(minutes: Int64, delayS: Int64 = 60) -> SimulationScenario {
        var scenario = SimulationScenario()
        scenario.durationMs = minutes * 60_000
        scenario.delayMs = delayS * 1000
        return scenario
    }

    @Test func outagesLoseOnlyWhatTheServerNeverResent() throws {
        var scenario = scenario(minutes: 8)
        scenario.outages = [.init(atMs: 120_000, lengthMs: 3_000), .init(atMs: 240_000, lengthMs: 10_000)]
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
        interrupted.outages = [.init(atMs: 65_000, lengthMs: 3_000)]
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
            .init(atMs: 90_000, event: .streamerMuted),
            .init(atMs: 120_000, event: .streamerUnmuted),
            .init(atMs: 150_000, event: .adBreak(AdBreak(audioURL: "file:///ads/half-time.mp3", durationMs: 30_000))),
            .init(atMs: 200_000, event: .title("Second half")),
        ]
        scenario.outages = [.init(atMs: 100_000, lengthMs: 2_000)]  // resends the mute: it must fire once
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
        scenario.jitterMs = 80
        scenario.outages = [.init(atMs: 100_000, lengthMs: 2_000)]
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
        scenario.jitterMs = jitterMs
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
        scenario.events = [.init(atMs: 200_000, event: .streamerMuted)]
        scenario.pauses = [(atMs: 60_000, lengthMs: 120_000)]  // delay grows to 130 s
        scenario.delayChanges = [(atMs: 300_000, delayMs: 20_000)]  // jumps over the mute
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
        scenario.jitterMs = 30
        scenario.outages = [.init(atMs: 60_000, lengthMs: 7_000)]
        let first = try Simulation(scenario).run().jsonString()
        let second = try Simulation(scenario).run().jsonString()
        #expect(first == second)
    }

    @Test func theSimulatedServerKnowsWhatItNeverResent() {
        let network = SimulatedNetwork(
            packetFrames: 1_152, packetBytes: 384, latencyMs: 20, jitterMs: 0, burstMs: 4_000,
            connectAtMs: 10_000, outages: [.init(atMs: 100_000, lengthMs: 10_000)],
            events: [], seed: 1)
        let lost = network.lostPackets()
        #expect(lost.count == 1)
        #expect(abs(lost[0].count * 24 - 6_000) <= 24)
    }
}
