/// A point on a monotonic clock, in nanoseconds since an arbitrary origin.
///
/// The engine never reads a clock itself: every call that depends on time takes an
/// `Instant`, so tests and the simulator drive it on a manual clock.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = Instant(nanoseconds: 0)
    /// The clock's units: nanoseconds in a millisecond and in a second.
    public static let nanosecondsPerMillisecond: Int64 = 1_000_000
    public static let nanosecondsPerSecond: Int64 = 1_000_000_000

    public static func seconds(_ s: Double) -> Instant { Instant(nanoseconds: Int64((s * 1e9).rounded())) }
    public static func milliseconds(_ ms: Int64) -> Instant { Instant(nanoseconds: ms * nanosecondsPerMillisecond) }

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }

    /// This instant moved by `nanoseconds` ns.
    public func advanced(byNanoseconds nanoseconds: Int64) -> Instant {
        Instant(nanoseconds: self.nanoseconds + nanoseconds)
    }

    /// This instant moved by `milliseconds` ms (a setting, a back-off, a window).
    public func advanced(byMilliseconds milliseconds: Int64) -> Instant {
        advanced(byNanoseconds: milliseconds * Self.nanosecondsPerMillisecond)
    }

    /// This instant moved by `frames` frames of the internal format.
    public func advanced(byFrames frames: Int64) -> Instant {
        advanced(byNanoseconds: frames * Self.nanosecondsPerSecond / Int64(AudioFormat.sampleRate))
    }

    /// Frames of the internal format elapsed from `earlier` to this instant (negative if earlier is later).
    public func frames(since earlier: Instant) -> Int64 {
        (nanoseconds - earlier.nanoseconds) * Int64(AudioFormat.sampleRate) / Self.nanosecondsPerSecond
    }

    /// Milliseconds elapsed from `earlier` to this instant.
    public func milliseconds(since earlier: Instant) -> Int64 {
        (nanoseconds - earlier.nanoseconds) / Self.nanosecondsPerMillisecond
    }

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public var description: String { "\(seconds)s" }
}

/// A source of monotonic time, injected wherever "now" is needed.
///
/// Implementation requirements: `now()` never goes backwards and is safe to call from
/// any thread. The appliance uses the system's monotonic clock; tests and the simulator
/// use `ManualClock`, which only moves when told to.
public protocol MonotonicClock: Sendable {
    func now() -> Instant
}
