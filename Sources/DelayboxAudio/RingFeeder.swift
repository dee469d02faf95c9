import DelayboxEngine

/// The playout side of the ring: renders periods while the ring holds less than its
/// target, telling the renderer exactly how far from the jack each period starts (the
/// ring's fill plus the device's delay, from `OutputTiming`).
public final class RingFeeder {
    public let ring: FrameRing
    public let timing: OutputTiming
    /// Frames per rendered period.
    public let periodFrames: Int
    /// Frames the ring is kept filled to: the audio thread's cushion against a late
    /// playout thread.
    public let targetFrames: Int
    private let scratch: UnsafeMutableBufferPointer<Float>

    public init(ring: FrameRing, timing: OutputTiming, periodFrames: Int, targetFrames: Int) {
        precondition(targetFrames <= ring.capacityFrames && periodFrames <= targetFrames)
        self.ring = ring
        self.timing = timing
        self.periodFrames = periodFrames
        self.targetFrames = targetFrames
        scratch = .allocate(capacity: periodFrames * AudioFormat.channelCount)
        scratch.initialize(repeating: 0)
    }

    deinit { scratch.deallocate() }

    /// Renders periods until the ring holds `targetFrames`, and at least
    /// `minimumPeriods` while there is room (a last fade-out at stop), but no more than
    /// `maximumPeriods` (a run of fixed length); `render` fills the buffer it is given with
    /// the audio whose first frame is audible `delay` frames after `now`. Returns the
    /// periods rendered.
    @discardableResult
    public func feed(
        now: Instant, minimumPeriods: Int = 0, maximumPeriods: Int = .max,
        render: (_ buffer: UnsafeMutableBufferPointer<Float>, _ delay: Int) -> Void
    ) -> Int {
        var periods = 0
        while periods < max(minimumPeriods, maximumPeriods),
            ring.fillFrames + periodFrames <= targetFrames
                || (periods < minimumPeriods && ring.fillFrames + periodFrames <= ring.capacityFrames)
        {
            render(scratch, outputDelayFrames(now: now))
            ring.write(UnsafeBufferPointer(scratch))
            periods += 1
        }
        return periods
    }

    /// Frames from `now` until the next frame written to the ring is audible. Before the
    /// audio thread's first measurement: the ring's fill.
    public func outputDelayFrames(now: Instant) -> Int {
        let next = ring.totalWritten
        guard let delay = timing.delayFrames(untilRingFrame: next, now: now) else { return ring.fillFrames }
        return Int(max(0, delay))
    }
}
