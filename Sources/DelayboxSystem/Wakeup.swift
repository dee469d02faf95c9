import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Ends another thread's wait in `poll` at once: that thread polls `descriptor` along with
/// its device; any thread calls `wake()`. The one wake-up of the device adapters (an
/// eventfd: one descriptor, and any number of wakes before a `drain` count as one). A
/// thread that waits for nothing but a signal from another waits on a semaphore instead
/// (`WakeableSleeper`, `WorkerThread`): no descriptor needed.
public final class Wakeup: Sendable {
    private let event: FileDescriptor

    public init() throws(Errno) {
        let descriptor = dbx_system_eventfd()
        guard descriptor >= 0 else { throw Errno.current }
        event = FileDescriptor(adopting: descriptor)
    }

    /// For the waiting thread's `pollfd` (POLLIN once woken).
    public var descriptor: Int32 { event.rawValue }

    /// Wakes the waiting thread, or its next wait.
    public func wake() {
        var one: UInt64 = 1
        // Fails only when the count would overflow: then a wake-up is pending anyway.
        _ = withUnsafeBytes(of: &one) { try? event.write($0) }
    }

    /// Takes the wake-up once it was seen, so the next wait waits.
    public func drain() {
        var count: UInt64 = 0
        _ = withUnsafeMutableBytes(of: &count) { try? event.read(into: $0) }
    }
}
