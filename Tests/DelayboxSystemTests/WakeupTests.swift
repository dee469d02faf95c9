import DelayboxSystem
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(10))) struct WakeupTests {
    static func isReady(_ wakeup: Wakeup, _ wait: Poll.Wait) throws -> Bool {
        var descriptors = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        return try Poll.wait(&descriptors, wait) == 1
    }

    /// A thread waiting without a time limit returns when another wakes it.
    @Test func aWaitWithoutLimitEndsWhenWoken() throws {
        let wakeup = try Wakeup()
        let ready = Atomic<Bool>(false)
        let returned = DispatchSemaphore(value: 0)
        let thread = Thread {
            ready.store((try? Self.isReady(wakeup, .forever)) ?? false, ordering: .sequentiallyConsistent)
            returned.signal()
        }
        thread.start()
        wakeup.wake()
        // The thread's own return, waited for (a hang fails here after 5 s, not at the suite's limit).
        #expect(returned.wait(timeout: .now() + 5) == .success, "the waiting thread returned once woken")
        let wasReady = ready.load(ordering: .sequentiallyConsistent)
        #expect(wasReady, "it returned because its descriptor was ready")
    }

    /// Wakes before the wait count as one, and a drained wake-up is gone: the next wait waits.
    @Test func manyWakesAreOneAndADrainTakesIt() throws {
        let wakeup = try Wakeup()
        #expect(try !Self.isReady(wakeup, .none))
        for _ in 0..<1_000 { wakeup.wake() }
        #expect(try Self.isReady(wakeup, .none))
        wakeup.drain()
        #expect(try !Self.isReady(wakeup, .none))
    }
}
