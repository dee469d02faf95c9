import DelayboxEngine
import Synchronization

/// When the ring's frames will be heard, as the audio thread last estimated it
/// (`OutputOriginEstimate`): frame k of the ring (counting every frame ever written) is
/// audible at `origin + k / rate`.
/// One atomic value, so the playout thread never sees a ring position and a device delay
/// from two different moments. Silence written for an empty ring moves the origin later.
public final class OutputTiming: Sendable {
    private let originNanoseconds = Atomic<Int64>(Int64.min)

    public init() {}

    /// Audio thread: ring frame 0 is (would have been) heard at `origin`, so frame k at
    /// `origin + k / rate`.
    public func publish(origin: Instant) {
        originNanoseconds.store(origin.nanoseconds, ordering: .releasing)
    }

    /// Frames from `now` until ring frame `index` is audible; nil before the first write.
    public func delayFrames(untilRingFrame index: Int, now: Instant) -> Int64? {
        let origin = originNanoseconds.load(ordering: .acquiring)
        guard origin != Int64.min else { return nil }
        return Instant(nanoseconds: origin).advanced(byFrames: Int64(index)).frames(since: now)
    }
}
