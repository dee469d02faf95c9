/// Waits until an instant of a `MonotonicClock`. Paced outputs and the audio thread's
/// back-off sleep through it, so tests run them in virtual time.
///
/// Implementation requirements: returns at or after `instant` on the clock it belongs
/// to (at once if that has passed); safe to call from any thread. The appliance sleeps
/// on the system's monotonic clock; tests use a sleeper that advances a `ManualClock`.
public protocol Sleeper: Sendable {
    func sleep(until instant: Instant)
}
