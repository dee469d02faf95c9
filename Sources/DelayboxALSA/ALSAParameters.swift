import CALSA
import DelayboxAudio
import DelayboxEngine

/// What ALSA grants a playback or capture PCM (`ALSAStream`), negotiated the same way for both: the
/// requested sample format first, then the others widest first; two channels or the
/// nearest; 48 kHz only; the period time set explicitly (some plugins otherwise pick
/// 1-frame periods) and the buffer as whole periods.
enum ALSAParameters {
    struct Granted {
        var format: OutputFormat
        var periodFrames: Int
        var bufferFrames: Int
    }

    /// Negotiates access, sample format, channels, rate, period and buffer, then the
    /// software parameters for the direction: playback starts once all but one period is
    /// queued, capture with the first read.
    static func negotiate(_ pcm: OpaquePointer, _ request: ALSAOutput.Request, stream: snd_pcm_stream_t)
        throws(OutputError) -> Granted
    {
        let device = request.device
        var hw: OpaquePointer?
        try ALSAError.check(snd_pcm_hw_params_malloc(&hw), "snd_pcm_hw_params_malloc", device: device)
        defer { snd_pcm_hw_params_free(hw) }
        try ALSAError.check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any", device: device)
        try ALSAError.check(
            snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access",
            device: device)
        let candidates = [request.sampleFormat] + [SampleFormat.s32, .s24, .s16].filter { $0 != request.sampleFormat }
        guard
            let sampleFormat = candidates.first(where: { snd_pcm_hw_params_test_format(pcm, hw, alsaFormat($0)) == 0 })
        else {
            throw .unsupported(reason: "\(device) takes none of S16_LE, S24_LE, S32_LE")
        }
        try ALSAError.check(
            snd_pcm_hw_params_set_format(pcm, hw, alsaFormat(sampleFormat)), "snd_pcm_hw_params_set_format",
            device: device)
        var channels: UInt32 = UInt32(AudioFormat.channelCount)
        try ALSAError.check(
            snd_pcm_hw_params_set_channels_near(pcm, hw, &channels), "snd_pcm_hw_params_set_channels_near",
            device: device)
        var rate = UInt32(AudioFormat.sampleRate)
        var direction: Int32 = 0
        try ALSAError.check(
            snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &direction), "snd_pcm_hw_params_set_rate_near",
            device: device)
        guard rate == UInt32(AudioFormat.sampleRate) else {
            throw .unsupported(
                reason:
                    "\(device) runs at \(rate) Hz, not \(AudioFormat.sampleRate) Hz; use its plughw: name to convert")
        }
        // Period time as well as buffer time: without it some plugins pick 1-frame periods.
        var periodMicroseconds = UInt32(request.periodFrames * 1_000_000 / AudioFormat.sampleRate)
        try ALSAError.check(
            snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodMicroseconds, &direction),
            "snd_pcm_hw_params_set_period_time_near", device: device)
        var bufferMicroseconds = periodMicroseconds * UInt32(request.periods)
        try ALSAError.check(
            snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferMicroseconds, &direction),
            "snd_pcm_hw_params_set_buffer_time_near", device: device)
        try ALSAError.check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params", device: device)
        var period = snd_pcm_uframes_t(0), buffer = snd_pcm_uframes_t(0)
        try ALSAError.check(
            snd_pcm_hw_params_get_period_size(hw, &period, &direction), "snd_pcm_hw_params_get_period_size",
            device: device)
        try ALSAError.check(
            snd_pcm_hw_params_get_buffer_size(hw, &buffer), "snd_pcm_hw_params_get_buffer_size", device: device)

        var sw: OpaquePointer?
        try ALSAError.check(snd_pcm_sw_params_malloc(&sw), "snd_pcm_sw_params_malloc", device: device)
        defer { snd_pcm_sw_params_free(sw) }
        try ALSAError.check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current", device: device)
        // Playback: start once all but one period is queued, a full cushion from the first frame.
        let start = stream == SND_PCM_STREAM_PLAYBACK ? buffer - period : 1
        try ALSAError.check(
            snd_pcm_sw_params_set_start_threshold(pcm, sw, start), "snd_pcm_sw_params_set_start_threshold",
            device: device)
        try ALSAError.check(
            snd_pcm_sw_params_set_avail_min(pcm, sw, period), "snd_pcm_sw_params_set_avail_min", device: device)
        try ALSAError.check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params", device: device)
        return Granted(
            format: OutputFormat(rate: Int(rate), channels: Int(channels), sampleFormat: sampleFormat),
            periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    static func alsaFormat(_ format: SampleFormat) -> snd_pcm_format_t {
        switch format {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s24: SND_PCM_FORMAT_S24_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        }
    }
}
