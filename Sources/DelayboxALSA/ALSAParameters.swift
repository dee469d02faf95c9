import CALSA
import DelayboxAudio
import DelayboxEngine
import Glibc

/// What ALSA grants a playback or capture PCM, negotiated the same way for both: the
/// requested sample format first, then the others widest first; two channels or the
/// nearest; 48 kHz only; the period time set explicitly (some plugins otherwise pick
/// 1-frame periods) and the buffer as whole periods.
enum ALSAParameters {
    struct Granted {
        var format: OutputFormat
        var periodFrames: Int
        var bufferFrames: Int
    }

    /// Opens `request.device` for `stream` and negotiates it; closed again if that fails.
    /// `isPaced`: a plugin without a clock (`null`, `file`), which the driver paces itself.
    static func open(_ request: ALSAOutput.Request, stream: snd_pcm_stream_t) throws(OutputError)
        -> (pcm: OpaquePointer, granted: Granted, isPaced: Bool) {
        var handle: OpaquePointer?
        try ALSAError.check(snd_pcm_open(&handle, request.device, stream, 0), "snd_pcm_open", device: request.device)
        guard let handle else { throw .deviceLost(reason: "\(request.device): snd_pcm_open returned no handle") }
        do throws(OutputError) {
            let granted = try negotiate(handle, request, stream: stream)
            let type = snd_pcm_type(handle)
            return (handle, granted, type == SND_PCM_TYPE_NULL || type == SND_PCM_TYPE_FILE)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
    }

    /// Negotiates access, sample format, channels, rate, period and buffer, then the
    /// software parameters for the direction: playback starts once all but one period is
    /// queued, capture with the first read.
    static func negotiate(_ pcm: OpaquePointer, _ request: ALSAOutput.Request, stream: snd_pcm_stream_t) throws(OutputError) -> Granted {
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
        // Playback: start once all but one period is queued, a full cushion from the first frame.
        let start = stream == SND_PCM_STREAM_PLAYBACK ? buffer - period : 1
        try ALSAError.check(snd_pcm_sw_params_set_start_threshold(pcm, sw, start), "snd_pcm_sw_params_set_start_threshold", device: device)
        try ALSAError.check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "snd_pcm_sw_params_set_avail_min", device: device)
        try ALSAError.check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params", device: device)
        return Granted(format: OutputFormat(rate: Int(rate), channels: Int(channels), sampleFormat: sampleFormat),
                       periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    static func alsaFormat(_ format: SampleFormat) -> snd_pcm_format_t {
        switch format {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s24: SND_PCM_FORMAT_S24_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        }
    }

    /// Recovers from what a read or write returned (`rc`, negative): nothing to do for
    /// EAGAIN and EINTR; after an xrun (EPIPE: a playback underrun or a capture overrun)
    /// the device is prepared again and true returned; after a suspend (ESTRPIPE) it is
    /// resumed when the system wakes, or prepared again. Anything else is a lost device.
    static func recover(_ pcm: OpaquePointer, _ rc: Int32, after call: String, device: String,
                        clock: any MonotonicClock, sleeper: any Sleeper) throws(OutputError) -> Bool {
        switch -rc {
        case EAGAIN, EINTR:
            return false
        case EPIPE:
            try ALSAError.check(snd_pcm_prepare(pcm), "snd_pcm_prepare", device: device)
            return true
        case ESTRPIPE:
            var resume = snd_pcm_resume(pcm)
            while resume == -EAGAIN {
                sleeper.sleep(until: clock.now().advanced(byNanoseconds: 10_000_000))
                resume = snd_pcm_resume(pcm)
            }
            if resume < 0 { try ALSAError.check(snd_pcm_prepare(pcm), "snd_pcm_prepare", device: device) }
            return false
        default:
            throw ALSAError.error(rc, call, device: device)
        }
    }
}
