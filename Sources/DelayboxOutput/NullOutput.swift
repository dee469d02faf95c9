import DelayboxAudio
import DelayboxEngine

/// Plays into nothing, at real time: for diagnostics, benchmarks, and boxes whose only
/// job for now is to record.
public final class NullOutput: OutputDriver {
    public let name = "null"
    public let format = OutputFormat(
        rate: AudioFormat.sampleRate, channels: AudioFormat.channelCount, sampleFormat: .s16)
    public let periodFrames: Int
    public let bufferFrames: Int
    public var underruns: Int { pacing.underruns }
    private var pacing: PacedPlayout
    private var closed = false
    private let clock: any MonotonicClock
    private let sleeper: any Sleeper

    public init(periodFrames: Int, periods: Int, clock: any MonotonicClock, sleeper: any Sleeper) {
        self.periodFrames = periodFrames
        bufferFrames = periodFrames * periods
        pacing = PacedPlayout(bufferFrames: bufferFrames)
        self.clock = clock
        self.sleeper = sleeper
    }

    public func write(_ frames: UnsafePointer<Float>) throws(OutputError) {
        guard !closed else { throw .closed }
        sleeper.sleep(until: pacing.prepareWrite(frames: periodFrames, now: clock.now()).due)
        pacing.didWrite(frames: periodFrames)
    }

    public func delayFrames() -> Int { pacing.delayFrames(at: clock.now()) }

    public var firstFrameAudible: Instant? { pacing.start }

    public func close() { closed = true }
}
