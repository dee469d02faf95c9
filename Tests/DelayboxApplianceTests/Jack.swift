import DelayboxAudio
import DelayboxEngine
import DelayboxSimulation
import DelayboxTestSupport

@testable import DelayboxApp

/// The virtual appliance's output: a device with a 4-period buffer that plays at the
/// clock's pace (as a sound card does: `PacedPlayout`), keeping the left channel of every
/// frame it played, and when its first frame was heard.
final class Jack: OutputDriver, @unchecked Sendable {
    // @unchecked: the virtual appliance runs on the test's one thread.
    let name = "jack"
    let format = OutputFormat(rate: AudioFormat.sampleRate, channels: AudioFormat.channelCount, sampleFormat: .s16)
    let periodFrames = 960
    let bufferFrames = 4 * 960
    var underruns: Int { pacing.underruns }
    /// The left channel of every frame heard, silence of underruns included.
    private(set) var heard: [Float] = []
    private var pacing: PacedPlayout
    private let clock: ManualClock
    private let sleeper: ManualSleeper

    init(clock: ManualClock, sleeper: ManualSleeper) {
        self.clock = clock
        self.sleeper = sleeper
        pacing = PacedPlayout(bufferFrames: bufferFrames)
    }

    func write(_ frames: UnsafePointer<Float>) throws(OutputError) {
        let (due, gap) = pacing.prepareWrite(frames: periodFrames, now: clock.now())
        heard += repeatElement(0, count: Int(gap))
        sleeper.sleep(until: due)
        heard += (0..<periodFrames).map { frames[2 * $0] }
        pacing.didWrite(frames: periodFrames)
    }

    func delayFrames() -> Int { pacing.delayFrames(at: clock.now()) }

    /// When frame 0 was heard.
    var firstFrameAudible: Instant? { pacing.start }

    func close() {}

    /// When frame `frame` was heard.
    func instant(ofFrame frame: Int) -> Instant { (firstFrameAudible ?? .zero).advanced(byFrames: Int64(frame)) }

    /// The frame heard at `instant`.
    func frame(at instant: Instant) -> Int { Int(instant.frames(since: firstFrameAudible ?? .zero)) }

    /// The loudest sample heard from `from` to `to`.
    func peak(from: Instant, to: Instant) -> Float {
        heard[max(0, frame(at: from))..<min(heard.count, frame(at: to))].map(abs).max() ?? 0
    }

    /// When the demo programme's pips (a tone each second of the stream) began to be
    /// heard, from `from` to `to`: each the first loud frame after 300 ms of quiet (so
    /// none in the first 300 ms).
    func pips(from: Instant, to: Instant) -> [Instant] {
        let quiet = AudioFormat.frames(milliseconds: 300)
        var onsets: [Instant] = []
        var lastLoud = max(0, frame(at: from))
        for index in lastLoud..<min(heard.count, frame(at: to)) where abs(heard[index]) > 0.1 {
            if Int64(index - lastLoud) > quiet { onsets.append(instant(ofFrame: index)) }
            lastLoud = index
        }
        return onsets
    }
}
