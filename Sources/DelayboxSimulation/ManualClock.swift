import DelayboxEngine
import Synchronization

/// A clock that moves only when told to: tests and the simulator advance it
/// synchronously, so hours of playback run in seconds and every run is identical.
public final class ManualClock: MonotonicClock {
    private let current: Mutex<Instant>

    public init(_ start: Instant = .zero) { current = Mutex(start) }

    public func now() -> Instant { current.withLock { $0 } }

    /// Moves the clock to `instant`; it never goes backwards.
    public func set(_ instant: Instant) {
        current.withLock { $0 = max($0, instant) }
    }

    /// Moves the clock forward by `nanoseconds`.
    public func advance(byNanoseconds nanoseconds: Int64) {
        current.withLock { $0 = $0 + TimeAmount(nanoseconds: max(nanoseconds, 0)) }
    }
}
