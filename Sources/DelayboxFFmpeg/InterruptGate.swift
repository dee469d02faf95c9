import CFFmpeg
import DelayboxUnits
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Decides, from FFmpeg's interrupt callback, when a blocking network call must give up:
/// on a stop request, or when no data came before the stall deadline.
///
/// FFmpeg calls the callback from inside its blocking I/O, on the I/O thread, while any
/// other thread may request a stop; both fields are atomics, so no lock is involved.
public final class InterruptGate: Sendable {
    private let stopRequested = Atomic<Bool>(false)
    /// CLOCK_MONOTONIC nanoseconds after which a blocking call is abandoned.
    private let deadline = Atomic<Int64>(.max)
    private let stalled = Atomic<Bool>(false)

    public init() {}

    /// Makes every blocking call return promptly from now on.
    public func requestStop() { stopRequested.store(true, ordering: .relaxed) }

    public var isStopRequested: Bool { stopRequested.load(ordering: .relaxed) }

    /// Whether a blocking call was abandoned for lack of data since `beginConnection()`.
    /// Sticky: after a stall FFmpeg keeps answering with the stored error without asking
    /// the callback again, so the flag must outlive the call that set it.
    public var didStall: Bool { stalled.load(ordering: .relaxed) }

    /// Forgets an earlier stall; call before opening a new connection.
    public func beginConnection() { stalled.store(false, ordering: .relaxed) }

    /// Allows the next blocking call `milliseconds` before it counts as a stall.
    public func arm(for wait: TimeAmount) {
        deadline.store(Self.monotonicNanoseconds() + wait.nanoseconds, ordering: .relaxed)
    }

    /// The callback's answer: non-zero interrupts the blocking call.
    func shouldInterrupt() -> Int32 {
        if stopRequested.load(ordering: .relaxed) { return 1 }
        if Self.monotonicNanoseconds() > deadline.load(ordering: .relaxed) {
            stalled.store(true, ordering: .relaxed)
            return 1
        }
        return 0
    }

    /// The callback FFmpeg calls; `opaque` is an unretained pointer to the gate.
    static let callback: @convention(c) (UnsafeMutableRawPointer?) -> Int32 = { opaque in
        guard let opaque else { return 0 }
        return Unmanaged<InterruptGate>.fromOpaque(opaque).takeUnretainedValue().shouldInterrupt()
    }

    static func monotonicNanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
