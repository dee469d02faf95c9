import CALSA
import DelayboxAudio
import DelayboxEngine
import Glibc

/// Capture through ALSA (libasound): the codec's line-in (`hw:CARD=…`), `default`, or
/// any plugin, read a period at a time as 16-bit stereo for a line-in channel. Overrun
/// (EPIPE) and suspend (ESTRPIPE) are recovered in place; anything else is a lost
/// device, for the caller to reopen.
///
/// ALSA's `null` and `file` plugins have no clock; for them this driver paces itself
/// (`PacedCapture`), so a `file` plugin's `infile` plays the part of the line-in in tests.
public final class ALSAInput {
    public let name: String
    public let format: OutputFormat
    public let periodFrames: Int
    public let bufferFrames: Int
    /// Times the device overran (the reader was late) and captured audio was lost.
    public private(set) var overruns = 0
    /// Whether this driver paces itself (a plugin without a clock).
    public let isPaced: Bool
    private var pcm: OpaquePointer?
    private let converter: CaptureConverter
    /// One period in the device's format.
    private let deviceBytes: UnsafeMutableRawPointer
    private var pacing: PacedCapture
    private let clock: any MonotonicClock
    private let sleeper: any Sleeper

    /// Opens and configures the device for capture.
    public init(_ request: ALSAOutput.Request, clock: any MonotonicClock, sleeper: any Sleeper) throws(OutputError) {
        _ = ALSAError.captureErrors
        name = "alsa:" + request.device
        self.clock = clock
        self.sleeper = sleeper
        let opened = try ALSAParameters.open(request, stream: SND_PCM_STREAM_CAPTURE)
        pcm = opened.pcm
        format = opened.granted.format
        periodFrames = opened.granted.periodFrames
        bufferFrames = opened.granted.bufferFrames
        isPaced = opened.isPaced
        pacing = PacedCapture(bufferFrames: bufferFrames)
        converter = CaptureConverter(format: format)
        deviceBytes = .allocate(byteCount: periodFrames * format.bytesPerFrame, alignment: 16)
        // ALSA's null plugin "captures" without writing: silence, not whatever memory held.
        deviceBytes.initializeMemory(as: UInt8.self, repeating: 0, count: periodFrames * format.bytesPerFrame)
    }

    deinit {
        close()
        deviceBytes.deallocate()
    }

    /// Waits for the next period and converts it into `destination` (`periodFrames * 2`
    /// samples, 16-bit stereo).
    public func read(into destination: UnsafeMutablePointer<Int16>) throws(OutputError) {
        guard let pcm else { throw .closed }
        if isPaced {
            let (due, lost) = pacing.prepareRead(frames: periodFrames, now: clock.now())
            if lost > 0 {
                overruns += 1
                var left = lost
                while left > 0 {
                    let count = Int(min(left, Int64(periodFrames)))
                    try readAll(pcm, frames: count)
                    left -= Int64(count)
                }
            }
            sleeper.sleep(until: due)
        }
        try readAll(pcm, frames: periodFrames)
        if isPaced { pacing.didRead(frames: periodFrames) }
        converter.convert(deviceBytes, frames: periodFrames, into: destination)
    }

    /// Frames captured and not yet read: how long ago the next period began at the input.
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
        snd_pcm_close(pcm)
    }

    /// Reads `frames` frames into `deviceBytes`, recovering from overrun and suspend.
    /// The corresponding C function is `snd_pcm_readi`.
    private func readAll(_ pcm: OpaquePointer, frames: Int) throws(OutputError) {
        var done = 0
        while done < frames {
            let rc = snd_pcm_readi(pcm, deviceBytes + done * format.bytesPerFrame, snd_pcm_uframes_t(frames - done))
            if rc > 0 {
                done += Int(rc)
                continue
            }
            if rc == 0 { throw .deviceLost(reason: "\(name): the input ended") }
            try recover(pcm, Int32(rc))
        }
    }

    private func recover(_ pcm: OpaquePointer, _ rc: Int32) throws(OutputError) {
        if try ALSAParameters.recover(pcm, rc, after: "snd_pcm_readi", device: name, clock: clock, sleeper: sleeper) { overruns += 1 }
    }
}
