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
        return Int64(spec.tv_sec) * Instant.nanosecondsPerSecond + Int64(spec.tv_nsec)
    }

    /// CLOCK_MONOTONIC itself as an `Instant` (counted from the system's start, not from a
    /// clock made here): for the doors' windows and deadlines that no test steps.
    public static func monotonicNow() -> Instant { Instant(nanoseconds: monotonicNanoseconds()) }
}
