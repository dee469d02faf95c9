import CALSA
import DelayboxAudio
import DelayboxEngine
import Glibc

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

    public let name: String
    public let format: OutputFormat
    public let periodFrames: Int
    public let bufferFrames: Int
    public private(set) var underruns = 0
    /// Whether this driver paces itself (a plugin without a clock).
    public let isPaced: Bool
    private var pcm: OpaquePointer?
    private let converter: SampleConverter
    /// One period in the device's format; zeros for underrun gaps of a paced plugin.
    private let deviceBytes: UnsafeMutableRawPointer
    private let silence: UnsafeMutableRawPointer
    private var pacing: PacedPlayout
    private let clock: any MonotonicClock
    private let sleeper: any Sleeper

    /// Opens and configures the device.
    public init(_ request: Request, clock: any MonotonicClock, sleeper: any Sleeper) throws(OutputError) {
        _ = ALSAError.captureErrors
        name = "alsa:" + request.device
        self.clock = clock
        self.sleeper = sleeper
        let opened = try ALSAParameters.open(request, stream: SND_PCM_STREAM_PLAYBACK)
        pcm = opened.pcm
        format = opened.granted.format
        periodFrames = opened.granted.periodFrames
        bufferFrames = opened.granted.bufferFrames
        isPaced = opened.isPaced
        pacing = PacedPlayout(bufferFrames: bufferFrames)
        converter = SampleConverter(format: format)
        let bytes = periodFrames * format.bytesPerFrame
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
        guard let pcm else { throw .closed }
        converter.convert(frames, frames: periodFrames, into: deviceBytes)
        if isPaced {
            let (due, gap) = pacing.prepareWrite(frames: periodFrames, now: clock.now())
            if gap > 0 {
                underruns += 1
                var left = gap
                while left > 0 {
                    let count = Int(min(left, Int64(periodFrames)))
                    try writeAll(pcm, silence, frames: count)
                    left -= Int64(count)
                }
            }
            sleeper.sleep(until: due)
        }
        try writeAll(pcm, deviceBytes, frames: periodFrames)
        if isPaced { pacing.didWrite(frames: periodFrames) }
    }

    public func delayFrames() -> Int {
        if isPaced { return pacing.delayFrames(at: clock.now()) }
        guard let pcm else { return 0 }
        var delay = snd_pcm_sframes_t(0)
        guard snd_pcm_delay(pcm, &delay) == 0 else { return 0 }
        return max(0, Int(delay))
    }

    public func close() {
        guard let pcm else { return }
        self.pcm = nil
        // A hardware device plays out what it holds; a paced plugin has nothing pending.
        if !isPaced { snd_pcm_drain(pcm) }
        snd_pcm_close(pcm)
    }

    /// Writes `frames` frames, recovering from underrun and suspend.
    /// The corresponding C function is `snd_pcm_writei`.
    private func writeAll(_ pcm: OpaquePointer, _ bytes: UnsafeMutableRawPointer, frames: Int) throws(OutputError) {
        var done = 0
        while done < frames {
            let rc = snd_pcm_writei(pcm, bytes + done * format.bytesPerFrame, snd_pcm_uframes_t(frames - done))
            if rc >= 0 {
                done += Int(rc)
                continue
            }
            try recover(pcm, Int32(rc))
        }
    }

    private func recover(_ pcm: OpaquePointer, _ rc: Int32) throws(OutputError) {
        if try ALSAParameters.recover(pcm, rc, after: "snd_pcm_writei", device: name, clock: clock, sleeper: sleeper) { underruns += 1 }
    }
}
