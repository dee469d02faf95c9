import DelayboxUnits
import Glibc

/// The system's monotonic clock (CLOCK_MONOTONIC, read through the vDSO) as the
/// engine's `Instant`s, counted from when this clock was made. (Through Swift's
/// `ContinuousClock` a reading cost twice as much: its `Duration` arithmetic is 128-bit.)
public struct SystemClock: MonotonicClock {
    private let origin = Self.monotonicNanoseconds()

    public init() {}

    public func now() -> Instant { Instant(nanoseconds: Self.monotonicNanoseconds() - origin) }

    /// CLOCK_MONOTONIC itself, in nanoseconds: the clock libgpiod stamps edges with, and
    /// the one an outside observer of the output reads.
    public static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
