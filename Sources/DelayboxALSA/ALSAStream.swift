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
    init(_ request: ALSAOutput.Request, direction: snd_pcm_stream_t, clock: any MonotonicClock, sleeper: any Sleeper) throws(OutputError) {
        _ = ALSAError.captureErrors
        let opened = try ALSAParameters.open(request, stream: direction)
        name = "alsa:" + request.device
        pcm = opened.pcm
        format = opened.granted.format
        periodFrames = opened.granted.periodFrames
        bufferFrames = opened.granted.bufferFrames
        isPaced = opened.isPaced
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
            if try ALSAParameters.recover(pcm, Int32(rc), after: playback ? "snd_pcm_writei" : "snd_pcm_readi", device: name,
                                          clock: clock, sleeper: sleeper) {
                xruns += 1
            }
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
}
