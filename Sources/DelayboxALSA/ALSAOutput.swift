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
        var handle: OpaquePointer?
        try ALSAError.check(snd_pcm_open(&handle, request.device, SND_PCM_STREAM_PLAYBACK, 0), "snd_pcm_open", device: request.device)
        guard let handle else { throw .deviceLost(reason: "\(request.device): snd_pcm_open returned no handle") }
        do throws(OutputError) {
            let granted = try Self.configure(handle, request)
            format = granted.format
            periodFrames = granted.periodFrames
            bufferFrames = granted.bufferFrames
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        pcm = handle
        let type = snd_pcm_type(handle)
        isPaced = type == SND_PCM_TYPE_NULL || type == SND_PCM_TYPE_FILE
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
        switch -rc {
        case EAGAIN, EINTR:
            return
        case EPIPE:
            // Underrun: the device ran dry and stopped; prepare restarts it with the next write.
            underruns += 1
            try ALSAError.check(snd_pcm_prepare(pcm), "snd_pcm_prepare", device: name)
        case ESTRPIPE:
            // Suspended (system sleep): wait for the device to resume, or restart it.
            var resume = snd_pcm_resume(pcm)
            while resume == -EAGAIN {
                sleeper.sleep(until: clock.now().advanced(byNanoseconds: 10_000_000))
                resume = snd_pcm_resume(pcm)
            }
            if resume < 0 { try ALSAError.check(snd_pcm_prepare(pcm), "snd_pcm_prepare", device: name) }
        default:
            throw ALSAError.error(rc, "snd_pcm_writei", device: name)
        }
    }

    private struct Granted {
        var format: OutputFormat
        var periodFrames: Int
        var bufferFrames: Int
    }

    /// Negotiates access, sample format, channels, rate, period and buffer.
    private static func configure(_ pcm: OpaquePointer, _ request: Request) throws(OutputError) -> Granted {
        let device = request.device
        var hw: OpaquePointer?
        try ALSAError.check(snd_pcm_hw_params_malloc(&hw), "snd_pcm_hw_params_malloc", device: device)
        defer { snd_pcm_hw_params_free(hw) }
        try ALSAError.check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any", device: device)
        try ALSAError.check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access", device: device)
        let candidates = [request.sampleFormat] + [SampleFormat.s32, .s24, .s16].filter { $0 != request.sampleFormat }
        guard let sampleFormat = candidates.first(where: { snd_pcm_hw_params_test_format(pcm, hw, alsaFormat($0)) == 0 }) else {
            throw .unsupported(reason: "\(device) takes none of S16_LE, S24_LE, S32_LE")
        }
        try ALSAError.check(snd_pcm_hw_params_set_format(pcm, hw, alsaFormat(sampleFormat)), "snd_pcm_hw_params_set_format", device: device)
        var channels: UInt32 = UInt32(AudioFormat.channelCount)
        try ALSAError.check(snd_pcm_hw_params_set_channels_near(pcm, hw, &channels), "snd_pcm_hw_params_set_channels_near", device: device)
        var rate = UInt32(AudioFormat.sampleRate)
        var direction: Int32 = 0
        try ALSAError.check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &direction), "snd_pcm_hw_params_set_rate_near", device: device)
        guard rate == UInt32(AudioFormat.sampleRate) else {
            throw .unsupported(reason: "\(device) runs at \(rate) Hz, not \(AudioFormat.sampleRate) Hz; use its plughw: name to convert")
        }
        // Period time as well as buffer time: without it some plugins pick 1-frame periods.
        var periodMicroseconds = UInt32(request.periodFrames * 1_000_000 / AudioFormat.sampleRate)
        try ALSAError.check(snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodMicroseconds, &direction),
                            "snd_pcm_hw_params_set_period_time_near", device: device)
        var bufferMicroseconds = periodMicroseconds * UInt32(request.periods)
        try ALSAError.check(snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferMicroseconds, &direction),
                            "snd_pcm_hw_params_set_buffer_time_near", device: device)
        try ALSAError.check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params", device: device)
        var period = snd_pcm_uframes_t(0), buffer = snd_pcm_uframes_t(0)
        try ALSAError.check(snd_pcm_hw_params_get_period_size(hw, &period, &direction), "snd_pcm_hw_params_get_period_size", device: device)
        try ALSAError.check(snd_pcm_hw_params_get_buffer_size(hw, &buffer), "snd_pcm_hw_params_get_buffer_size", device: device)

        var sw: OpaquePointer?
        try ALSAError.check(snd_pcm_sw_params_malloc(&sw), "snd_pcm_sw_params_malloc", device: device)
        defer { snd_pcm_sw_params_free(sw) }
        try ALSAError.check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current", device: device)
        // Start once all but one period is queued: a full cushion from the first frame.
        try ALSAError.check(snd_pcm_sw_params_set_start_threshold(pcm, sw, buffer - period), "snd_pcm_sw_params_set_start_threshold", device: device)
        try ALSAError.check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "snd_pcm_sw_params_set_avail_min", device: device)
        try ALSAError.check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params", device: device)
        return Granted(format: OutputFormat(rate: Int(rate), channels: Int(channels), sampleFormat: sampleFormat),
                       periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    private static func alsaFormat(_ format: SampleFormat) -> snd_pcm_format_t {
        switch format {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s24: SND_PCM_FORMAT_S24_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        }
    }
}
