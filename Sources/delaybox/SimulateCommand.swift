import ArgumentParser
import DelayboxEngine
import DelayboxPlatform
import DelayboxSimulation
import DelayboxUnits
import FoundationEssentials

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Run the playback engine against a simulated network and DAC, in virtual time.",
        discussion: """
            The same engine code as the appliance, driven on a manual clock: a live source
            behind an Icecast-like server (4 s connect burst on every reconnect), a DAC off
            by --drift-ppm. Reports the delay error heard at the simulated jack, underruns,
            lost audio and gaps. An hour simulates in about a second.
            """)

    @Option(name: .long, help: "Session length in seconds.")
    var duration: Double = 3_600

    @Option(name: .long, help: "Delay to hold, in seconds.")
    var delay: Double = 60

    @Option(name: .long, help: "Network outage AT:LEN in seconds from the start (repeatable).")
    var outage: [String] = []

    // Unconditional: a slow DAC's `--drift-ppm -100` is a value, not an option.
    @Option(name: .long, parsing: .unconditional, help: "DAC clock error in ppm (negative: the DAC runs slow).")
    var driftPpm: Double = 0

    @Option(
        name: .long, parsing: .unconditional,
        help: "The station's clock error in ppm (its encoder's crystal; negative: it runs slow).")
    var stationPpm: Double = 0

    @Option(name: .customLong("jitter-ms"), help: "Random extra network latency per packet, up to this many ms.")
    var jitter: Int64 = 0

    @Option(name: .customLong("latency-ms"), help: "Network latency in ms (what a packet takes at least).")
    var latency: Int64 = 20

    @Option(name: .long, help: "HLS: segments of this many seconds, each fetched whole at a playlist reload.")
    var hlsSegment: Double?

    @Option(name: .long, help: "The path's latency from AT seconds on: AT:MS (a route or CDN edge; repeatable).")
    var pathChange: [String] = []

    @Option(
        name: .customLong("jitter-tail-ms"), help: "Heavy-tailed extra latency per packet: Pareto above this many ms.")
    var jitterTail: Int64 = 0

    @Flag(name: .long, help: "A variable bitrate: packet sizes alternate every 10 s (speech, music).")
    var vbr = false

    @Option(name: .long, help: "Maximum delay kept, in seconds.")
    var maxDelay: Double = 300

    @Flag(name: .long, help: "Print the report as JSON.")
    var json = false

    func run() throws {
        var scenario = SimulationScenario()
        scenario.duration = .milliseconds(try milliseconds(duration, "--duration"))
        scenario.delay = .milliseconds(try milliseconds(delay, "--delay"))
        scenario.driftPpm = driftPpm
        guard (0...10_000).contains(jitter) else { throw ValidationError("--jitter-ms is within 0…10000") }
        scenario.jitter = .milliseconds(jitter)
        guard (0...10_000).contains(latency) else { throw ValidationError("--latency-ms is within 0…10000") }
        scenario.latency = .milliseconds(latency)
        if let hlsSegment {
            guard (1...30).contains(hlsSegment) else { throw ValidationError("--hls-segment is within 1…30 s") }
            scenario.delivery.hlsSegment = .milliseconds(try milliseconds(hlsSegment, "--hls-segment"))
        }
        scenario.delivery.pathChanges = try pathChange.map(Self.parsePathChange)
        guard (0...1_000).contains(jitterTail) else { throw ValidationError("--jitter-tail-ms is within 0…1000") }
        scenario.delivery.jitterTail = .milliseconds(jitterTail)
        scenario.delivery.variableBitrate = vbr
        guard abs(stationPpm) <= 1_000 else { throw ValidationError("--station-ppm is within ±1000") }
        scenario.stationPpm = stationPpm
        scenario.engine.maxDelay = .milliseconds(try milliseconds(maxDelay, "--max-delay"))
        scenario.outages = try outage.map(Self.parseOutage)
        guard scenario.delay <= scenario.engine.maxDelay else {
            throw ValidationError("--delay \(delay) exceeds --max-delay \(maxDelay)")
        }
        let report = try Simulation(scenario).run()
        if json {
            print(report.jsonString())
        } else {
            print(
                String(
                    printf: "delay error: max %.2f ms, p99 %.2f ms (%d checks)", report.delayErrorMsMax,
                    report.delayErrorMsP99, report.delayChecks))
            print(
                "underruns: \(report.underruns)  lost: \(report.lostMs) ms (server: \(report.lostMsExpected) ms)  gaps: \(report.gapsMs) ms"
            )
            print(
                "splices: \(report.splices)  path steps: \(report.lagSteps)  resyncs: \(report.resyncs)  drift: \(report.driftPpmMeasured) ppm measured, \(report.driftSlips) frames slipped  final: \(report.finalState), delay \(report.finalDelayMs) ms"
            )
            let station = report.stationPpmMeasured.map { String(printf: "%.1f ppm followed", $0) } ?? "not followed"
            print(
                "station: \(report.stationPpm) ppm, \(station); largest step at the jack "
                    + String(printf: "%.3f ms", report.delayStepMsMax))
            print(
                "by minute (min…max ms): "
                    + report.delayErrorMsByMinute.map { String(printf: "%d: %.1f…%.1f", $0.minute, $0.minMs, $0.maxMs) }
                    .joined(separator: ", "))
        }
    }

    static func parsePathChange(_ text: String) throws -> SimulatedNetwork.PathChange {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let at = Double(parts[0]), let latency = Int64(parts[1]), at >= 0,
            (0...10_000).contains(latency)
        else {
            throw ValidationError(
                "--path-change wants AT:MS, AT in seconds and MS within 0…10000, e.g. 300:120; got '\(text)'")
        }
        return .init(at: .milliseconds(try milliseconds(at, "--path-change AT")), latency: .milliseconds(latency))
    }

    static func parseOutage(_ text: String) throws -> SimulatedNetwork.Outage {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let at = Double(parts[0]), let length = Double(parts[1]), at >= 0, length > 0 else {
            throw ValidationError("--outage wants AT:LEN in seconds, e.g. 600:3; got '\(text)'")
        }
        return .init(
            at: .milliseconds(try milliseconds(at, "--outage AT")),
            length: .milliseconds(try milliseconds(length, "--outage LEN")))
    }
}
