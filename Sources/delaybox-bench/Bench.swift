import DelayboxEngine
import DelayboxSimulation
import DelayboxTestSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Prints benchmark figures, one `name: value` per line (see docs/performance.md).
/// `delaybox-bench engine` runs only the engine and simulator figures, `mix` the mixer's
/// cost against decoding, `delaybox-bench peers` only the side-by-side run of `play` with mpv, `delaybox-bench appliance
/// [SECONDS [PERIODS]]` only the appliance's (at a 300 s delay and the boards' 4 periods
/// unless given), `recorded` what a channel
/// recorded in the background costs, `journal` a restart's replay of a 10-minute delay journal, `package` this machine's package's sizes, `arm64` the
/// Raspberry Pi build's, `mqtt` a command's round trip through a broker, `web` the web page's
/// cost idle and its status's way to an open page; no argument runs all.
@main
enum Bench {
    static func main() throws {
        let part = CommandLine.arguments.dropFirst().first
        if part == nil || part == "engine" { try engineFigures() }
        if part == nil || part == "mix" {
            try MixCost.figures(minutes: CommandLine.arguments.dropFirst(2).first.flatMap(Double.init) ?? 5)
        }
        if part == nil || part == "peers" { try peerFigures() }
        if part == nil || part == "appliance" { try applianceFigures() }
        if part == nil || part == "recorded" { try recordedChannelFigures() }
        if part == nil || part == "journal" { try JournalReplayCost.figures() }
        if part == nil || part == "package" { try PackageFigures.print(root: Arm64Figures.build.root) }
        if part == nil || part == "arm64" { try Arm64Figures.print() }
        if part == nil || part == "mqtt" { try MQTTRoundTrip.figures(delaybox: delayboxPath) }
        if part == nil || part == "web" { try WebFigures.figures(delaybox: delayboxPath) }
    }

    /// A board for the figures of a whole appliance: the demo channel at a 2 s delay into
    /// ALSA's `null` device in the shipped boards' periods (20 ms × 4), so that its playout
    /// wakes as on a board. A section may follow.
    static let demoBoard = """
        board:
          name: Benchmark
        audio:
          device: alsa:null
          period: 20 ms
          periods: 4
        channels:
          - name: Demo
            url: demo://commentary
        defaults:
          delay: 2 s

        """

    /// The `delaybox` executable beside this one.
    static var delayboxPath: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("delaybox")
            .path
    }

    static func engineFigures() throws {
        let realtime = try engineSpeed(audioSeconds: 3_600)
        print("engine_x_realtime: \(Int(realtime))")
        print("engine_cpu_s_per_hour_of_audio: \(format(3_600 / realtime))")

        let memory = try delayMemory(minutes: 30)
        print("delay_mb_per_min: \(format(memory.allocated))")
        print("delay_rss_mb_per_min: \(format(memory.rss))")
        // The peer design: holding decoded audio (48 kHz stereo Float32), as a PCM ring would.
        let pcm = Double(AudioFormat.sampleRate * AudioFormat.channelCount * 4 * 60) / 1e6
        print("pcm_ring_mb_per_min: \(format(pcm))")
        print("delay_memory_ratio_vs_pcm_ring: \(format(memory.allocated / pcm))")

        var scenario = SimulationScenario()
        scenario.duration = .hours(1)
        scenario.delay = .seconds(60)
        scenario.outages = [
            .init(at: .minutes(10), length: .seconds(3)), .init(at: .minutes(20), length: .seconds(10)),
        ]
        let started = cpuSeconds()
        let report = try Simulation(scenario).run()
        let simulated = cpuSeconds() - started
        print("sim_1h_x_realtime: \(Int(3_600 / simulated))")
        print("sim_1h_delay_error_ms_p99: \(format(report.delayErrorMsP99))")
        print("sim_1h_lost_ms: \(format(report.lostMs))")
        print("sim_1h_gaps_ms: \(format(report.gapsMs))")
        print("sim_1h_underruns: \(report.underruns)")

        scenario.driftPpm = 100
        scenario.duration = .hours(3)
        scenario.delay = .seconds(45)
        let drifting = try Simulation(scenario).run()
        print("delay_error_ms_p99_3h_100ppm: \(format(drifting.delayErrorMsP99))")
        print("delay_error_ms_max_3h_100ppm: \(format(drifting.delayErrorMsMax))")

        // Issue 58: the station's clock 200 ppm fast, the DAC 100 slow, arrivals 0-500 ms late.
        scenario.stationPpm = 200
        scenario.driftPpm = -100
        scenario.jitter = .milliseconds(500)
        scenario.measureFrom = .minutes(10)
        let station = try Simulation(scenario).run()
        print("station_drift_error_ms_p99_3h: \(format(station.delayWanderMsP99))")
        print("station_drift_error_ms_max_3h: \(format(station.delayWanderMsMax))")
        print("station_clock_ppm_followed: \(format(station.stationPpmMeasured ?? .nan))")
    }

    static func peerFigures() throws {
        if let missing = PeerComparison.missingPeer {
            skip(["stream_cpu_ratio_vs_mpv", "delay_mem_ratio_vs_mpv"], because: missing)
        } else {
            let comparison = PeerComparison { url, delay, total in
                [delayboxPath, "play", url, "--delay", String(delay), "--for", String(total), "--output", "null"]
            }
            let (ours, mpv) = try comparison.run()
            print("stream_delay_s_vs_mpv: \(Int(comparison.delaySeconds))")
            print("stream_cpu_s_per_min_delaybox: \(format(ours.cpuSecondsPerMinute))")
            print("stream_cpu_s_per_min_mpv: \(format(mpv.cpuSecondsPerMinute))")
            print("stream_cpu_ratio_vs_mpv: \(format(ours.cpuSecondsPerMinute / mpv.cpuSecondsPerMinute))")
            print("stream_cpu_s_per_min_with_startup_delaybox: \(format(ours.cpuSecondsPerMinuteWithStartup))")
            print("stream_cpu_s_per_min_with_startup_mpv: \(format(mpv.cpuSecondsPerMinuteWithStartup))")
            print("delay_mem_mb_per_min_delaybox: \(format(ours.growthMBPerMinute))")
            print("delay_mem_mb_per_min_mpv: \(format(mpv.growthMBPerMinute))")
            print("delay_mem_ratio_vs_mpv: \(format(ours.growthMBPerMinute / mpv.growthMBPerMinute))")
        }
    }

    /// The whole appliance (`delaybox run`, ALSA null device in 20 ms periods) beside mpv
    /// on the same live stream at a 5 min delay, and its start-up on a local stream.
    static func applianceFigures() throws {
        if let missing = PeerComparison.missingPeer {
            skip(
                ["appliance_cpu_ratio_vs_mpv", "appliance_rss_mb", "start_to_audio_s", "appliance_rss_mb_start"],
                because: missing)
            return
        }
        var appliance = ApplianceRun(
            executable: delayboxPath,
            directory: FileManager.default.temporaryDirectory.appendingPathComponent("delaybox-bench-\(getpid())"))
        // `delaybox-bench appliance SECONDS PERIODS`: the latency-for-wake-ups trade measured.
        if CommandLine.arguments.count > 3, let periods = Int(CommandLine.arguments[3]) { appliance.periods = periods }
        defer { try? FileManager.default.removeItem(at: appliance.directory) }
        let start = try appliance.startToAudio()
        print("start_to_audio_s: \(format(start.reported))")
        print("start_to_audio_log_seen_s: \(format(start.seen))")
        print("appliance_rss_mb_start: \(format(Double(start.residentBytes) / 1_048_576))")
        // `delaybox-bench appliance SECONDS` holds a shorter delay, for a quick look.
        let delay = CommandLine.arguments.count > 2 ? Double(CommandLine.arguments[2]) ?? 300 : 300
        let comparison = PeerComparison(delaySeconds: delay, playSeconds: 30, settleSeconds: 10) { url, delay, total in
            try appliance.command(url: url, delaySeconds: delay, totalSeconds: total)
        }
        let (ours, mpv) = try comparison.run()
        print("appliance_delay_s_vs_mpv: \(Int(comparison.delaySeconds))")
        print("appliance_device_periods: \(appliance.periods)")
        print("appliance_cpu_s_per_min: \(format(ours.cpuSecondsPerMinute))")
        print("appliance_cpu_s_per_min_mpv: \(format(mpv.cpuSecondsPerMinute))")
        print("appliance_cpu_ratio_vs_mpv: \(format(ours.cpuSecondsPerMinute / mpv.cpuSecondsPerMinute))")
        print("appliance_rss_mb: \(format(ours.peakMB))")
        print("appliance_rss_mb_mpv: \(format(mpv.peakMB))")
        print("appliance_rss_ratio_vs_mpv: \(format(ours.peakMB / mpv.peakMB))")
        print("appliance_delay_mem_mb_per_min: \(format(ours.growthMBPerMinute))")
        print("appliance_delay_mem_mb_per_min_mpv: \(format(mpv.growthMBPerMinute))")
        // Where the CPU goes: each wake-up costs a fixed ~50 µs here (docs/performance.md).
        for (thread, rate) in ours.wakeupsPerSecond.sorted(by: { $0.key < $1.key }) where rate >= 0.05 {
            let name = thread.replacingOccurrences(of: "-", with: "_")
            print("appliance_wakeups_per_s_\(name): \(format(rate))")
            print("appliance_cpu_ms_per_s_\(name): \(format(ours.cpuMillisecondsPerSecond[thread] ?? 0))")
        }
        print("appliance_wakeups_per_s: \(format(ours.wakeupsPerSecond.values.reduce(0, +)))")
        print("appliance_wakeups_per_s_mpv: \(format(mpv.wakeupsPerSecond.values.reduce(0, +)))")
    }

    /// What one channel recorded in the background costs (`RecordedChannelCost`).
    static func recordedChannelFigures() throws {
        guard IcecastServer.isAvailable else {
            skip(["recorded_channel_cpu_s_per_min"], because: "icecast2 or ffmpeg not installed")
            return
        }
        let recorded = try RecordedChannelCost(delaybox: delayboxPath).run()
        print("recorded_channel_cpu_s_per_min: \(format(recorded.cpuSecondsPerMinute))")
        print("recorded_channel_mb_per_min: \(format(recorded.mbPerMinute))")
    }

    /// Hours of audio the engine records and plays per hour of CPU: a live 128 kbps
    /// stream (generated packets, test codec) at a 60 s delay, rendered in 20 ms periods.
    static func engineSpeed(audioSeconds: Int) throws -> Double {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .minutes(1)
        let engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder() })
        var network = SimulatedNetwork(
            packetFrames: 1_152, packetBytes: 384, latency: .milliseconds(20), jitter: .zero, burst: .seconds(4),
            connectAt: .seconds(10), outages: [], events: [], seed: 1)
        var period = [Float](repeating: 0, count: 960 * AudioFormat.channelCount)
        let start = Instant.milliseconds(10_000)
        engine.start(now: start)
        let started = cpuSeconds()
        for index in 0..<(Int64(audioSeconds) * 50) {
            let now = start + index * .milliseconds(20)
            while network.nextTime() <= now {
                let (time, delivery) = network.next()
                network.apply(delivery, at: time, to: engine)
            }
            period.withUnsafeMutableBufferPointer { engine.render(into: $0, now: now, outputDelayFrames: 2_880) }
        }
        let elapsed = cpuSeconds() - started
        guard engine.state == .playing else { throw BenchError("engine ended \(engine.state), not playing") }
        return Double(audioSeconds) / elapsed
    }

    /// Megabytes per minute of delay for a 128 kbps stream: allocated by the delay line,
    /// and as the process's resident memory grew.
    static func delayMemory(minutes: Int64) throws -> (allocated: Double, rss: Double) {
        var configuration = EngineConfiguration()
        configuration.maxDelay = .minutes(minutes)
        let rssBefore = residentBytes()
        let engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder() })
        engine.start(now: .zero)
        engine.connectionOpened(now: .zero)
        let packets = (minutes + 1) * 60_000 / 24
        for index in 0..<packets {
            let payload = ToneCodec.packet(firstFrame: index * 1_152, frames: 1_152, bytes: 384)
            engine.ingest(
                StreamPacket(payload: payload, connectionTimestamp: index * 1_152, durationFrames: 1_152),
                now: Instant.zero.advanced(byFrames: (index + 1) * 1_152))
        }
        let end = Instant.zero.advanced(byFrames: packets * 1_152)
        var period = [Float](repeating: 0, count: 1_920)
        period.withUnsafeMutableBufferPointer { engine.render(into: $0, now: end, outputDelayFrames: 0) }
        let status = engine.status(at: end)
        let held = status.availableDelay.seconds / 60
        let rss = Double(residentBytes() - rssBefore)
        return (Double(status.delayBufferBytes) / 1e6 / held, rss / 1e6 / held)
    }

    static func cpuSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Resident set size from /proc/self/statm.
    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    static func format(_ value: Double) -> String { String(format: "%.3f", value) }

    /// Says that the figures `names` were not measured here, and why.
    static func skip(_ names: [String], because reason: String) {
        for name in names { print("\(name): skipped (\(reason))") }
    }

    struct BenchError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
