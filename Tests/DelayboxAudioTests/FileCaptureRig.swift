import DelayboxALSA
import DelayboxAudio
import DelayboxEngine
import DelayboxSimulation
import DelayboxTestSupport
import Foundation

/// The whole output path in virtual time — engine, ring, the audio thread's loop, real
/// libasound writing S32 through its `file` plugin — and the captured file read back as
/// which stream frame was heard at each frame of the jack.
///
/// The stream is the test codec (every frame carries its own number) over a network with
/// a fixed 20 ms latency and no jitter: the engine cannot see latency, so a frame said at
/// m / 48 kHz should be heard at (m + delay + 20 ms) / 48 kHz.
final class FileCaptureRig {
    let clock = ManualClock()
    let path = NSTemporaryDirectory() + "delaybox-capture-\(getpid())-\(UUID().uuidString).raw"
    let engine: PlaybackEngine
    let output: ALSAOutput
    let pump: AudioPump
    let delayFrames: Int64
    static let latencyFrames: Int64 = 960
    private let feeder: RingFeeder
    private var network: SimulatedNetwork

    init(delayMs: Int64) throws {
        let sleeper = ManualSleeper(clock: clock)
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(delayMs)
        delayFrames = delayMs * 48
        engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder() })
        network = SimulatedNetwork(
            packetFrames: 1_152, packetBytes: 384, latency: .milliseconds(20), jitter: .zero, burst: .zero,
            connectAt: .zero, outages: [], events: [], seed: 3)
        output = try ALSAOutput(
            .init(device: "file:FILE=\(path),FORMAT=raw", sampleFormat: .s32, periodFrames: 960, periods: 4),
            clock: clock, sleeper: sleeper)
        let ring = FrameRing(capacityFrames: 4 * 960)
        let timing = OutputTiming()
        pump = AudioPump(
            ring: ring, timing: timing, gain: MasterGain(), clock: clock, sleeper: sleeper, driver: output,
            nominalPeriodFrames: 960
        ) { () throws(OutputError) in throw .closed }
        feeder = RingFeeder(ring: ring, timing: timing, periodFrames: 960, targetFrames: 2 * 960)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// A stretch of virtual time in which one of the two threads does not run (ms from the start).
    struct Stall {
        enum Thread { case playout, audio }
        var thread: Thread
        var atMs: Int64
        var lengthMs: Int64
    }

    /// Plays `seconds` of virtual time, with `stalls`, then stops the device.
    func run(seconds: Int64, stalls: [Stall] = []) {
        let start = clock.now()
        engine.start(now: start)
        var pending = stalls
        while clock.now().frames(since: start) < seconds * 48_000 {
            let now = clock.now()
            while network.nextTime() <= now {
                let (time, delivery) = network.next()
                network.apply(delivery, at: time, to: engine)
            }
            let elapsedMs = now.milliseconds(since: start)
            let playoutStalled = pending.contains {
                $0.thread == .playout && (($0.atMs)..<($0.atMs + $0.lengthMs)).contains(elapsedMs)
            }
            if !playoutStalled {
                feeder.feed(now: now) { buffer, delay in engine.render(into: buffer, now: now, outputDelayFrames: delay)
                }
            }
            if let index = pending.firstIndex(where: { $0.thread == .audio && elapsedMs >= $0.atMs }) {
                // The audio thread is descheduled: time passes, nothing reaches the device.
                clock.advance(byNanoseconds: pending[index].lengthMs * 1_000_000)
                pending.remove(at: index)
                continue
            }
            pump.step()
        }
        pump.finish()
    }

    /// For each frame at the jack: how many frames the stream frame heard there is later
    /// (positive) or earlier than the set delay says, or nil where no stream frame is
    /// heard (silence, a fade).
    func heardOffsets() throws -> [Int64?] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let words = data.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        return (0..<(words.count / 2)).map { frame in
            let scaled = (Double(words[2 * frame + 1]) / Double(SampleFormat.s32.fullScale) - 0.25) * Double(1 << 21)
            guard scaled >= 0, abs(scaled - scaled.rounded()) < 0.2 else { return nil }
            // Unwrap the code (it repeats every codePeriod frames) near the expected frame.
            let expected = Int64(frame) - delayFrames - Self.latencyFrames
            let code = Int64(scaled.rounded())
            let period = ToneCodec.codePeriod
            let streamFrame = expected - period / 2 + ((code - (expected - period / 2)) % period + period) % period
            return expected - streamFrame
        }
    }
}
