import DelayboxALSA
import DelayboxAudio
import DelayboxEngine
import DelayboxSimulation
import DelayboxTestSupport
import Foundation
import Testing

/// The whole output path in virtual time — engine, ring, audio thread's loop, real
/// libasound writing S32 through its `file` plugin — and the captured file read back:
/// every frame is the stream frame said `delay` earlier, to the sample.
@Suite struct EndToEndDelayTests {
    @Test func theCapturedOutputIsTheStreamAtTheSetDelayToTheSample() throws {
        let clock = ManualClock()
        let sleeper = ManualSleeper(clock: clock)
        let path = NSTemporaryDirectory() + "delaybox-end-to-end-\(getpid()).raw"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = EngineConfiguration()
        configuration.initialDelayMs = 3_000
        let engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder() })
        // A fixed 20 ms network latency, no jitter: the engine cannot see latency, so the
        // delay holds from the moment a frame is said plus 20 ms.
        var network = SimulatedNetwork(packetFrames: 1_152, packetBytes: 384, latencyMs: 20, jitterMs: 0, burstMs: 0,
                                       connectAtMs: 0, outages: [], events: [], seed: 3)
        let output = try ALSAOutput(.init(device: "file:FILE=\(path),FORMAT=raw", sampleFormat: .s32, periodFrames: 960, periods: 4),
                                    clock: clock, sleeper: sleeper)
        let ring = FrameRing(capacityFrames: 4 * 960)
        let timing = OutputTiming()
        let pump = AudioPump(ring: ring, timing: timing, gain: MasterGain(), clock: clock, sleeper: sleeper, driver: output,
                             nominalPeriodFrames: 960) { () throws(OutputError) in throw .closed }
        let feeder = RingFeeder(ring: ring, timing: timing, periodFrames: 960, targetFrames: 2 * 960)
        let start = clock.now()
        engine.start(now: start)
        while clock.now().frames(since: start) < 8 * 48_000 {
            let now = clock.now()
            while network.nextTime() <= now {
                let (time, delivery) = network.next()
                network.apply(delivery, at: time, to: engine)
            }
            feeder.feed(now: now) { buffer, delay in engine.render(into: buffer, now: now, outputDelayFrames: delay) }
            pump.step()
        }
        pump.finish()
        #expect(engine.delayInFrames == 3 * 48_000)

        // The paced device plays frame k at k / 48 kHz after its first write, at 0.
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let words = data.withUnsafeBytes { Array($0.bindMemory(to: Int32.self)) }
        var checked = 0, worst: Int64 = 0
        for frame in 0..<(words.count / 2) {
            let scaled = (Double(words[2 * frame + 1]) / Double(SampleFormat.s32.fullScale) - 0.25) * Double(1 << 21)
            guard scaled >= 0, abs(scaled - scaled.rounded()) < 0.2 else { continue }
            // Said at m / 48 kHz, heard at frame / 48 kHz: unwrap the code near the expected frame.
            let expected = Int64(frame) - 3 * 48_000 - 960
            let code = Int64(scaled.rounded())
            let period = ToneCodec.codePeriod
            let streamFrame = expected - period / 2 + ((code - (expected - period / 2)) % period + period) % period
            worst = max(worst, abs(streamFrame - expected))
            checked += 1
        }
        #expect(checked > 4 * 48_000, "\(checked) frames carried a code")
        #expect(worst <= 1, "the heard delay is off by up to \(worst) frames")
    }
}
