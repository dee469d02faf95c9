import DelayboxAudio
import DelayboxEngine
import DelayboxSimulation

/// The one test every `OutputDriver` passes (its contract is in `OutputDriver`'s doc
/// comment), in virtual time: the driver is made on `clock` with a `ManualSleeper`.
/// Returns what the driver got wrong; empty when it conforms.
public enum OutputDriverConformance {
    public static func problems(of driver: any OutputDriver, clock: ManualClock) -> [String] {
        var problems: [String] = []
        func expect(_ condition: Bool, _ problem: @autoclosure () -> String) {
            if !condition { problems.append(problem()) }
        }
        let period = driver.periodFrames, buffer = driver.bufferFrames
        expect(period > 0, "period of \(period) frames")
        expect(buffer >= 2 * period, "buffer of \(buffer) frames holds fewer than two periods of \(period)")
        expect(driver.format.rate == AudioFormat.sampleRate, "rate \(driver.format.rate) Hz")
        expect(driver.format.channels >= 1, "\(driver.format.channels) channels")
        guard problems.isEmpty else { return problems }
        expect(driver.delayFrames() == 0, "delay before the first write is \(driver.delayFrames()) frames")

        let samples = [Float](repeating: 0.1, count: period * AudioFormat.channelCount)
        // The typed throw is caught inside the closure: Swift 6.0's withUnsafeBufferPointer
        // rethrows it as `any Error`.
        func write() -> OutputError? {
            samples.withUnsafeBufferPointer { pointer -> OutputError? in
                do throws(OutputError) {
                    try driver.write(pointer.baseAddress!)
                    return nil
                } catch { return error }
            }
        }
        // Real time: after the buffer has filled, each period waits for the clock.
        let start = clock.now()
        let periods = buffer / period + 20
        for index in 0..<periods {
            if let error = write() { problems.append("write \(index) failed: \(error)"); return problems }
            let delay = driver.delayFrames()
            expect((0...buffer).contains(delay), "delay \(delay) frames after write \(index), buffer \(buffer)")
            let played = Int64(period * (index + 1) - delay)
            let elapsed = clock.now().frames(since: start)
            expect(
                abs(played - elapsed) <= 1,
                "after write \(index): \(played) frames played but \(elapsed) frames of time passed")
        }
        expect(driver.underruns == 0, "\(driver.underruns) underruns while written on time")

        // A late writer: the device runs dry, recovers by itself, the next write goes on.
        clock.advance(byNanoseconds: Int64(3 * buffer) * 1_000_000_000 / Int64(AudioFormat.sampleRate))
        if let error = write() { problems.append("write after an underrun failed: \(error)") }
        expect(driver.underruns >= 1, "an underrun went uncounted")
        expect((0...buffer).contains(driver.delayFrames()), "delay \(driver.delayFrames()) frames after recovering")

        driver.close()
        driver.close()
        expect(write() == .closed, "a write after close did not throw .closed")
        return problems
    }
}
