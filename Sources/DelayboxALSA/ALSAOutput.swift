import CALSA
import DelayboxAudio
import DelayboxEngine

/// Playback through ALSA (libasound): a hardware codec (`hw:CARD=…`), `default`, or any
/// plugin. Meets the `OutputDriver` contract: opened on construction, blocking writes
/// of one period, delay from `snd_pcm_delay`, underrun (EPIPE) and suspend (ESTRPIPE)
/// recovered in place, anything else (ENODEV, EBADFD, EIO…) reported as a lost device.
///
/// ALSA's `null` and `file` plugins have no clock and take audio as fast as it comes;
/// for them this driver paces itself (`PacedPlayout`), so tests and benchmarks through
/// real libasound run in real time — or in virtual time on a manual clock.
public final class ALSAOutput: OutputDriver {
    /// What to ask the device for; it may grant something close.
    public struct Request: Sendable, Equatable {
        /// An ALSA PCM name: `hw:CARD=sndrpihifiberry,DEV=0`, `default`, `null`, `file:FILE=…`.
        public var device: String
        /// Tried first; then the others, widest first.
        public var sampleFormat: SampleFormat
        /// Frames per period (20 ms: 960).
        public var periodFrames: Int
        /// Periods in the device's buffer.
        public var periods: Int

        public init(device: String, sampleFormat: SampleFormat = .s16, periodFrames: Int = 960, periods: Int = 4) {
            self.device = device
            self.sampleFormat = sampleFormat
            self.periodFrames = periodFrames
            self.periods = periods
        }
    }

    public var name: String { stream.name }
    public var format: OutputFormat { stream.format }
    public var periodFrames: Int { stream.periodFrames }
    public var bufferFrames: Int { stream.bufferFrames }
    /// Device underruns recovered, and gaps of a paced plugin.
    public var underruns: Int { stream.xruns + pacing.underruns }
    /// Whether this driver paces itself (a plugin without a clock).
    public var isPaced: Bool { stream.isPaced }
    private let stream: ALSAStream
    private let converter: SampleConverter
    /// One period in the device's format; zeros for underrun gaps of a paced plugin.
    private let deviceBytes: UnsafeMutableRawPointer
    private let silence: UnsafeMutableRawPointer
    private var pacing: PacedPlayout
    private let clock: any MonotonicClock
    private let sleeper: any Sleeper

    /// Opens and configures the device.
    public init(_ request: Request, clock: any MonotonicClock, sleeper: any Sleeper) throws(OutputError) {
        stream = try ALSAStream(request, direction: SND_PCM_STREAM_PLAYBACK, clock: clock, sleeper: sleeper)
        self.clock = clock
        self.sleeper = sleeper
        pacing = PacedPlayout(bufferFrames: stream.bufferFrames)
        converter = SampleConverter(format: stream.format)
        let bytes = stream.periodFrames * stream.format.bytesPerFrame
        deviceBytes = .allocate(byteCount: bytes, alignment: 16)
        silence = .allocate(byteCount: bytes, alignment: 16)
        silence.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    }

    deinit {
        close()
        deviceBytes.deallocate()
        silence.deallocate()
    }

    public func write(_ frames: UnsafePointer<Float>) throws(OutputError) {
        guard stream.isOpen else { throw .closed }
        converter.convert(frames, frames: periodFrames, into: deviceBytes)
        if isPaced {
            let (due, gap) = pacing.prepareWrite(frames: periodFrames, now: clock.now())
            var left = gap
            while left > 0 {
                let count = Int(min(left, Int64(periodFrames)))
                try stream.transfer(silence, frames: count)
                left -= Int64(count)
            }
            sleeper.sleep(until: due)
        }
        try stream.transfer(deviceBytes, frames: periodFrames)
        if isPaced { pacing.didWrite(frames: periodFrames) }
    }

    public func delayFrames() -> Int {
        isPaced ? pacing.delayFrames(at: clock.now()) : stream.deviceDelayFrames()
    }

    public var firstFrameAudible: Instant? { isPaced ? pacing.start : nil }

    /// A hardware device plays out what it holds first; a paced plugin has nothing pending.
    public func close() { stream.close() }
}
