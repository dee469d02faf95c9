import DelayboxUnits
import Dispatch

/// Sleeps on a `SystemClock` until an instant, or until `ring()`: the playout's sleep,
/// which a door's request ends at once, so that the console, `delayboxctl` and MQTT are
/// answered now rather than at the next render (up to 80 ms later).
public final class WakeableSleeper: Sleeper, Sendable {
    private let clock: SystemClock
    private let bell = DispatchSemaphore(value: 0)

    public init(clock: SystemClock) { self.clock = clock }

    public func sleep(until instant: Instant) {
        let wait = instant.nanoseconds - clock.now().nanoseconds
        guard wait > 0 else { return }
        if bell.wait(timeout: .now() + .nanoseconds(Int(wait))) == .success {
            // Rung: every ring until now is answered by this one wake-up.
            while bell.wait(timeout: .now()) == .success {}
        }
    }

    /// Ends the current (or next) sleep.
    public func ring() { bell.signal() }
}
