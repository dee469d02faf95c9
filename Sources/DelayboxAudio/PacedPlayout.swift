import DelayboxEngine

/// The playout clock of a device that has none of its own (a WAV file, ALSA's `null`
/// and `file` plugins): it consumes frames at the engine's rate from the first write,
/// queues at most `bufferFrames`, and runs dry when the writer is late — exactly the
/// behaviour of a sound card, so every driver meets the same `OutputDriver` contract.
public struct PacedPlayout: Sendable {
    /// Frames the simulated device queues at most.
    public let bufferFrames: Int
    /// When frame 0 was (or will be) audible; nil before the first write.
    public private(set) var start: Instant?
    /// Frames handed to the device so far, including silence for underruns.
    public private(set) var writtenFrames: Int64 = 0
    public private(set) var underruns = 0

    public init(bufferFrames: Int) { self.bufferFrames = bufferFrames }

    /// Before writing `frames`: when the device has room for them, and how many frames
    /// of silence it played because the writer was late (an underrun; they count as
    /// written, so the timeline stays that of the jack).
    public mutating func prepareWrite(frames: Int, now: Instant) -> (due: Instant, gapFrames: Int64) {
        guard let start else {
            start = now
            return (now, 0)
        }
        var gap: Int64 = 0
        let consumed = now.frames(since: start)
        if consumed > writtenFrames {
            gap = consumed - writtenFrames
            underruns += 1
            writtenFrames = consumed
        }
        let due = start.advanced(byFrames: writtenFrames + Int64(frames) - Int64(bufferFrames))
        return (max(due, now), gap)
    }

    /// After `frames` were written.
    public mutating func didWrite(frames: Int) { writtenFrames += Int64(frames) }

    /// Frames queued at `now`: the delay until the next written frame is audible.
    public func delayFrames(at now: Instant) -> Int {
        guard let start else { return 0 }
        return Int(max(0, writtenFrames - now.frames(since: start)))
    }
}
