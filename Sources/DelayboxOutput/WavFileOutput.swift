import DelayboxAudio
import DelayboxEngine

/// Plays into a 16-bit stereo WAV file, paced at real time like a sound card, so the
/// file is what the jack would have played: frame k is heard k frames after the first
/// write, and an underrun's gap is written as silence. Each period goes to the file as
/// it is written (header included), so a tool reading the file sees it when it is due; a
/// failed write (disk full, file size limit) is a lost device. Opened again after a loss,
/// it appends to what the file holds.
public final class WavFileOutput: OutputDriver {
    public let name: String
    public let format = OutputFormat(
        rate: AudioFormat.sampleRate, channels: AudioFormat.channelCount, sampleFormat: .s16)
    public let periodFrames: Int
    public let bufferFrames: Int
    public var underruns: Int { pacing.underruns }
    private var writer: WavFileWriter?
    private var pacing: PacedPlayout
    private let silence: [Float]
    private let clock: any MonotonicClock
    private let sleeper: any Sleeper

    /// - Parameter appending: continue the file's audio instead of starting it afresh.
    public init(
        path: String, appending: Bool = false, periodFrames: Int, periods: Int, clock: any MonotonicClock,
        sleeper: any Sleeper
    ) throws(OutputError) {
        do {
            writer = try WavFileWriter(path: path, appending: appending)
        } catch {
            throw .deviceLost(reason: "\(error)")
        }
        name = "wav:" + path
        self.periodFrames = periodFrames
        bufferFrames = periodFrames * periods
        pacing = PacedPlayout(bufferFrames: bufferFrames)
        silence = [Float](repeating: 0, count: periodFrames * AudioFormat.channelCount)
        self.clock = clock
        self.sleeper = sleeper
    }

    deinit { close() }

    public func write(_ frames: UnsafePointer<Float>) throws(OutputError) {
        guard let writer else { throw .closed }
        let (due, gap) = pacing.prepareWrite(frames: periodFrames, now: clock.now())
        var left = gap
        while left > 0 {
            let count = Int(min(left, Int64(periodFrames)))
            silence.withUnsafeBufferPointer {
                writer.write(UnsafeBufferPointer(rebasing: $0[0..<count * AudioFormat.channelCount]))
            }
            left -= Int64(count)
        }
        sleeper.sleep(until: due)
        writer.write(UnsafeBufferPointer(start: frames, count: periodFrames * AudioFormat.channelCount))
        pacing.didWrite(frames: periodFrames)
        do {
            try writer.flush()
        } catch {
            throw .deviceLost(reason: "\(error)")
        }
    }

    public func delayFrames() -> Int { pacing.delayFrames(at: clock.now()) }

    public var firstFrameAudible: Instant? { pacing.start }

    public func close() {
        try? writer?.close()
        writer = nil
    }
}
