import DelayboxUnits
import Dispatch
import Synchronization

/// One of the appliance's own threads (stream, capture, clips, console, control, panel):
/// named, running a loop until asked to stop, with a wait that a stop (or `wake()`) ends
/// at once. `stop()` blocks until the loop has returned; a second call returns at once.
public final class WorkerThread: Sendable {
    public let name: String
    private let stopRequested = Atomic<Bool>(false)
    private let wakeUp = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    public init(name: String) { self.name = name }

    /// Runs `body` on a new thread; it should return once `isStopRequested`.
    public func start(_ body: @escaping @Sendable () -> Void) {
        PlatformThread.start(name: name) { [finished] in
            body()
            finished.signal()
        }
    }

    /// Asks the loop to end, ends its `wait`, calls `interrupt` (to end any other blocking
    /// call: FFmpeg's gate, a port's read), and waits until the loop has returned.
    public func stop(interrupt: () -> Void = {}) {
        stopRequested.store(true, ordering: .releasing)
        wakeUp.signal()
        interrupt()
        finished.wait()
        finished.signal()
    }

    public var isStopRequested: Bool { stopRequested.load(ordering: .acquiring) }

    /// Sleeps up to `amount` (a day at most), or until a stop or `wake()`.
    public func wait(for amount: TimeAmount) {
        let nanoseconds = max(0, min(amount.nanoseconds, TimeAmount.days(1).nanoseconds))
        _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
    }

    /// Ends the current (or next) `wait` early.
    public func wake() { wakeUp.signal() }
}
