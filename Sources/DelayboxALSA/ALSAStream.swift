import CALSA
import DelayboxAudio
import DelayboxEngine
import Glibc

/// One open ALSA PCM, playback or capture, as both drivers use it: what the device
/// granted, whole transfers with xrun and suspend recovery, the device's delay, closing.
final class ALSAStream {
    /// `alsa:` and the device name.
    let name: String
    let format: OutputFormat
    let periodFrames: Int
    let bufferFrames: Int
    /// A plugin without a clock (`null`, `file`): the driver paces itself.
    let isPaced: Bool
    /// Underruns (playback) or overruns (capture) the device recovered from.
    private(set) var xruns = 0
    private var pcm: OpaquePointer?
    private let direction: snd_pcm_stream_t
    private let clock: any MonotonicClock
    private let sleeper: any Sleeper

    /// Opens `request.device` for `direction` and negotiates it.
    init(_ request: ALSAOutput.Request, direction: snd_pcm_stream_t, clock: any MonotonicClock, sleeper: any Sleeper)
        throws(OutputError)
    {
        _ = ALSAError.captureErrors
        var handle: OpaquePointer?
        try ALSAError.check(snd_pcm_open(&handle, request.device, direction, 0), "snd_pcm_open", device: request.device)
        guard let handle else { throw .deviceLost(reason: "\(request.device): snd_pcm_open returned no handle") }
        let granted: ALSAParameters.Granted
        do throws(OutputError) {
            granted = try ALSAParameters.negotiate(handle, request, stream: direction)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        name = "alsa:" + request.device
        pcm = handle
        format = granted.format
        periodFrames = granted.periodFrames
        bufferFrames = granted.bufferFrames
        let type = snd_pcm_type(handle)
        isPaced = type == SND_PCM_TYPE_NULL || type == SND_PCM_TYPE_FILE
        self.direction = direction
        self.clock = clock
        self.sleeper = sleeper
    }

    deinit { close() }

    var isOpen: Bool { pcm != nil }

    /// Moves `frames` frames between `bytes` (the device's format) and the device: all of
    /// them, recovering from xruns and suspend on the way.
    /// The corresponding C functions are `snd_pcm_writei` and `snd_pcm_readi`.
    func transfer(_ bytes: UnsafeMutableRawPointer, frames: Int) throws(OutputError) {
        guard let pcm else { throw .closed }
        let playback = direction == SND_PCM_STREAM_PLAYBACK
        var done = 0
        while done < frames {
            let at = bytes + done * format.bytesPerFrame, count = snd_pcm_uframes_t(frames - done)
            let rc = playback ? snd_pcm_writei(pcm, at, count) : snd_pcm_readi(pcm, at, count)
            if rc > 0 {
                done += Int(rc)
                continue
            }
            if rc == 0 {
                if playback { continue }
                throw .deviceLost(reason: "\(name): the input ended")
            }
            if try recover(pcm, Int32(rc), after: playback ? "snd_pcm_writei" : "snd_pcm_readi") { xruns += 1 }
        }
    }

    /// The device's own delay (frames): queued for playback, or captured and not yet read.
    func deviceDelayFrames() -> Int {
        guard let pcm else { return 0 }
        var delay = snd_pcm_sframes_t(0)
        guard snd_pcm_delay(pcm, &delay) == 0 else { return 0 }
        return max(0, Int(delay))
    }

    /// Closes the device; a hardware playback device first plays out what it holds.
    func close() {
        guard let pcm else { return }
        self.pcm = nil
        if direction == SND_PCM_STREAM_PLAYBACK, !isPaced { snd_pcm_drain(pcm) }
        snd_pcm_close(pcm)
    }

    /// Recovers from what a read or write returned (`rc`, negative): nothing to do for
    /// EAGAIN and EINTR; after an xrun (EPIPE: a playback underrun or a capture overrun)
    /// the device is prepared again and true returned; after a suspend (ESTRPIPE) it is
    /// resumed when the system wakes, or prepared again. Anything else is a lost device.
    private func recover(_ pcm: OpaquePointer, _ rc: Int32, after call: String) throws(OutputError) -> Bool {
        switch -rc {
        case EAGAIN, EINTR:
            return false
        case EPIPE:
            try ALSAError.check(snd_pcm_prepare(pcm), "snd_pcm_prepare", device: name)
            return true
        case ESTRPIPE:
            var resume = snd_pcm_resume(pcm)
            while resume == -EAGAIN {
                sleeper.sleep(until: clock.now() + .milliseconds(10))
                resume = snd_pcm_resume(pcm)
            }
            if resume < 0 { try ALSAError.check(snd_pcm_prepare(pcm), "snd_pcm_prepare", device: name) }
            return false
        default:
            throw ALSAError.error(rc, call, device: name)
        }
    }
}
