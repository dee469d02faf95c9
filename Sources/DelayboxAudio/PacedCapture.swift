import DelayboxEngine

/// The capture clock of a device that has none of its own (ALSA's `null` and `file`
/// plugins hand out frames as fast as they are read): it produces frames at the
/// engine's rate from the first read, holds at most `bufferFrames`, and overruns when
/// the reader is late — what a sound card's ADC does, so capture through those plugins
/// runs in real time, or in virtual time on a manual clock.
public struct PacedCapture: Sendable {
    /// Frames the simulated device holds at most before it overruns.
    public let bufferFrames: Int
    /// When frame 0 was captured; nil before the first read.
    private var start: Instant?
    /// Frames read or lost so far.
    public private(set) var readFrames: Int64 = 0
    public private(set) var overruns = 0

    public init(bufferFrames: Int) { self.bufferFrames = bufferFrames }

    /// Before reading `frames`: when they have all been captured, and how many frames the
    /// device lost because the reader was late (an overrun: the caller discards that many,
    /// so what it reads next is what was captured last).
    public mutating func prepareRead(frames: Int, now: Instant) -> (due: Instant, lostFrames: Int64) {
        let origin = start ?? now
        start = origin
        var lost: Int64 = 0
        let waiting = now.frames(since: origin) - readFrames
        if waiting > Int64(bufferFrames) {
            lost = waiting - Int64(bufferFrames)
            overruns += 1
            readFrames += lost
        }
        return (origin.advanced(byFrames: readFrames + Int64(frames)), lost)
    }

    /// After `frames` were read.
    public mutating func didRead(frames: Int) { readFrames += Int64(frames) }

    /// Frames captured and not yet read at `now`: how long ago the next frame read was
    /// heard at the input.
    public func delayFrames(at now: Instant) -> Int {
        guard let start else { return 0 }
        return Int(max(0, now.frames(since: start) - readFrames))
    }
}
