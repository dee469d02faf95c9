import DelayboxALSA
import DelayboxApp
import DelayboxAudio
import DelayboxOutput
import DelayboxSimulation
import DelayboxTestSupport
import DelayboxUnits
import Foundation
import Testing

/// Every output driver passes the same conformance test (`OutputDriverConformance`), in
/// virtual time; ALSA through real libasound with its `null` and `file` plugins.
@Suite(.timeLimit(.minutes(10))) struct OutputConformanceTests {
    let clock = ManualClock()
    var sleeper: ManualSleeper { ManualSleeper(clock: clock) }

    @Test func alsaNullPluginConforms() throws {
        let driver = try ALSAOutput(
            .init(device: "null", periodFrames: 960, periods: 4), clock: clock, sleeper: sleeper)
        #expect(driver.isPaced)
        #expect(OutputDriverConformance.problems(of: driver, clock: clock) == [])
    }

    @Test(arguments: [SampleFormat.s16, .s24, .s32])
    func alsaFilePluginConforms(format: SampleFormat) throws {
        let path = NSTemporaryDirectory() + "delaybox-conformance-\(format.rawValue)-\(getpid()).raw"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let driver = try ALSAOutput(
            .init(device: "file:FILE=\(path),FORMAT=raw", sampleFormat: format, periodFrames: 480, periods: 3),
            clock: clock, sleeper: sleeper)
        #expect(driver.format.sampleFormat == format)
        #expect(driver.periodFrames == 480 && driver.bufferFrames == 1_440)
        #expect(OutputDriverConformance.problems(of: driver, clock: clock) == [])
        // Everything written reached the file, underrun gap (silence) included.
        let bytes = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        #expect(bytes % driver.format.bytesPerFrame == 0)
        #expect(bytes / driver.format.bytesPerFrame >= (1_440 / 480 + 21) * 480)
    }

    @Test func wavFileConforms() throws {
        let path = NSTemporaryDirectory() + "delaybox-conformance-\(getpid()).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let driver = try WavFileOutput(path: path, periodFrames: 960, periods: 4, clock: clock, sleeper: sleeper)
        #expect(OutputDriverConformance.problems(of: driver, clock: clock) == [])
        let capture = try WavCapture(path: path)
        // 25 periods written; the clock then ran three buffers ahead while one full buffer
        // was still queued, so two buffers of gap were written as silence.
        #expect(capture.left.count == 25 * 960 + 2 * 3_840)
    }

    /// A WAV file that cannot be made says why, in the system's words.
    @Test func aWavFileThatCannotBeCreatedSaysWhy() {
        let path = "/nonexistent-\(UUID().uuidString)/out.wav"
        #expect(throws: OutputError.deviceLost(reason: "cannot create WAV file \(path): No such file or directory")) {
            try WavFileOutput(path: path, periodFrames: 960, periods: 4, clock: clock, sleeper: sleeper)
        }
    }

    /// Each period is in the file, its header saying so, once written: a listener tailing
    /// the file, or a tool timing it, hears it when it is due (it was once a second).
    @Test func eachPeriodReachesTheWavFileWhenItIsWritten() throws {
        let path = NSTemporaryDirectory() + "delaybox-wav-periods-\(getpid()).wav"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let driver = try WavFileOutput(path: path, periodFrames: 960, periods: 4, clock: clock, sleeper: sleeper)
        let period = [Float](repeating: 0.25, count: 2 * 960)
        for written in 1...3 {
            try period.withUnsafeBufferPointer { try driver.write($0.baseAddress!) }
            let file = try Data(contentsOf: URL(fileURLWithPath: path))
            let dataBytes = file[40..<44].reversed().reduce(0) { $0 << 8 | Int($1) }
            #expect(
                file.count == 44 + written * 960 * 4 && dataBytes == written * 960 * 4,
                "after period \(written): \(file.count) bytes")
            #expect(try WavCapture(path: path).left.last == Int16(0.25 * 32_767))
        }
        driver.close()
    }

    @Test func nullConforms() {
        let driver = NullOutput(periodFrames: 960, periods: 4, clock: clock, sleeper: sleeper)
        #expect(OutputDriverConformance.problems(of: driver, clock: clock) == [])
    }

    /// The conformance test itself must catch a driver that breaks the contract.
    @Test func conformanceCatchesADriverThatDoesNotPace() {
        final class Unpaced: OutputDriver {
            let name = "unpaced", format = OutputFormat(rate: 48_000, channels: 2, sampleFormat: .s16)
            let periodFrames = 960, bufferFrames = 3_840, underruns = 0
            func write(_ frames: UnsafePointer<Float>) throws(OutputError) {}
            func delayFrames() -> Int { 0 }
            let firstFrameAudible: Instant? = nil
            func close() {}
        }
        let problems = OutputDriverConformance.problems(of: Unpaced(), clock: clock)
        #expect(problems.contains { $0.contains("frames of time passed") })
        #expect(problems.contains { $0.contains("underrun went uncounted") })
        #expect(problems.contains { $0.contains("after close") })
    }
}
