import DelayboxEngine
import Glibc

/// The system's monotonic clock (CLOCK_MONOTONIC through Swift's `ContinuousClock`),
/// as the engine's `Instant`s, counted from when this clock was made.
public struct SystemClock: MonotonicClock {
    private let origin = ContinuousClock.now

    public init() {}

    public func now() -> Instant {
        let elapsed = origin.duration(to: .now).components
        return Instant(nanoseconds: elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
    }

    /// CLOCK_MONOTONIC itself, in nanoseconds: the clock libgpiod stamps edges with, and
    /// the one an outside observer of the output reads.
    public static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
