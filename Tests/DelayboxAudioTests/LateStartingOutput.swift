import DelayboxAudio
import DelayboxEngine
import DelayboxSimulation

/// A four-period device that starts `latency` after three periods are queued, exact
/// otherwise; a write waits for a period's room, as ALSA's blocking write does.
final class LateStartingOutput: OutputDriver {
    let name = "starts late"
    let format = OutputFormat(rate: AudioFormat.sampleRate, channels: AudioFormat.channelCount, sampleFormat: .s16)
    let periodFrames = 960
    let bufferFrames = 4 * 960
    let underruns = 0
    /// When it starts playing, once its start threshold is reached.
    private(set) var startsAt: Instant?
    private var written = 0
    private let latency: TimeAmount
    private let clock: ManualClock

    init(latency: TimeAmount, clock: ManualClock) {
        self.latency = latency
        self.clock = clock
    }

    func write(_ frames: UnsafePointer<Float>) throws(OutputError) {
        if bufferFrames - delayFrames() < periodFrames, let startsAt {
            clock.set(startsAt.advanced(byFrames: Int64(written + periodFrames - bufferFrames)))
        }
        written += periodFrames
        if startsAt == nil, written >= 3 * periodFrames { startsAt = clock.now() + latency }
    }

    func delayFrames() -> Int {
        guard let startsAt, clock.now() > startsAt else { return written }
        return written - min(written, Int(clock.now().frames(since: startsAt)))
    }

    /// Measured, as a sound card's.
    let firstFrameAudible: Instant? = nil

    func close() {}
}
