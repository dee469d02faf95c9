import DelayboxAnswers
import DelayboxPlatform
import DelayboxTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The playout and audio threads at real-time priority, and nothing they start: a worker
/// that libdispatch, libmosquitto or a stream client starts from them begins at normal
/// priority (SCHED_RESET_ON_FORK), or it could starve the rest of the board.
@Suite(
    .enabled(if: getuid() == 0, "real-time priority needs root here (make test runs as root; a board: LimitRTPRIO)"),
    .timeLimit(.minutes(10)))
struct RealTimePriorityTests {
    @Test func aRaisedThreadRunsAtItsPriorityAndTheThreadsItStartsDoNot() {
        let seen = Mutex<(raised: Bool, own: Int32, child: Int32?)>((false, -1, nil))
        let done = Atomic<Bool>(false)
        PlatformThread.start(name: "rt-test") {
            let raised = RealTimePriority.raiseCallingThread(to: 30)
            seen.withLock {
                $0.raised = raised; $0.own = RealTimePriority.ofCallingThread()
            }
            PlatformThread.start(name: "rt-test-child") {
                seen.withLock { $0.child = RealTimePriority.ofCallingThread() }
                done.store(true, ordering: .releasing)
            }
        }
        #expect(Eventually.holds(within: 10) { done.load(ordering: .acquiring) })
        let result = seen.withLock { $0 }
        #expect(result.raised && result.own == 30, "\(result)")
        #expect(result.child == 0, "a thread it started inherited its priority: \(result)")
        #expect(RealTimePriority.ofCallingThread() == 0, "the test's own thread is untouched")
        #expect(ConsoleAnswers.describe(priority: 40) == "fifo 40" && ConsoleAnswers.describe(priority: 0) == "normal")
    }
}
