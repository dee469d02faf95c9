import DelayboxUnits
import Synchronization

/// Tap-to-sync's waiting first tap, shared by every control that taps — the front panel's
/// thread and the remote's — so that a tap on the panel's button and the other on the
/// remote pair (issue 44: each kept its own and neither completed). Both time their taps on
/// the monotonic clock (GPIO edges and evdev events, EVIOCSCLOCKID), so they compare.
public final class TapPairing: Sendable {
    private let sync = Mutex(TapSync())

    public init() {}

    /// `TapSync.tap`: the delay change (ms) when this tap completed a pair.
    public func tap(at time: Instant) -> Int64? { sync.withLock { $0.tap(at: time) } }

    /// `TapSync.heard`.
    public func heard(at time: Instant) -> Int64? { sync.withLock { $0.heard(at: time) } }

    /// `TapSync.seen`.
    public func seen(at time: Instant) -> Int64? { sync.withLock { $0.seen(at: time) } }
}
