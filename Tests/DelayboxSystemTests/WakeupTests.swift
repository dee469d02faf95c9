import DelayboxSystem
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(10))) struct WakeupTests {
    static func isReady(_ wakeup: Wakeup, timeoutMs: Int32) throws -> Bool {
        var descriptors = [pollfd(fd: wakeup.descriptor, events: Int16(POLLIN), revents: 0)]
        return try Poll.wait(&descriptors, timeoutMs: timeoutMs) == 1
    }

    /// A thread waiting without a time limit returns when another wakes it.
    @Test func aWaitWithoutLimitEndsWhenWoken() throws {
        let wakeup = try Wakeup()
        let returned = Atomic<Bool>(false)
        let thread = Thread {
            returned.store((try? Self.isReady(wakeup, timeoutMs: -1)) ?? false, ordering: .sequentiallyConsistent)
        }
        thread.start()
        wakeup.wake()
        #expect(Eventually.holds(within: 5) { returned.load(ordering: .sequentiallyConsistent) })
    }

    /// Wakes before the wait count as one, and a drained wake-up is gone: the next wait waits.
    @Test func manyWakesAreOneAndADrainTakesIt() throws {
        let wakeup = try Wakeup()
        #expect(try !Self.isReady(wakeup, timeoutMs: 0))
        for _ in 0..<1_000 { wakeup.wake() }
        #expect(try Self.isReady(wakeup, timeoutMs: 0))
        wakeup.drain()
        #expect(try !Self.isReady(wakeup, timeoutMs: 0))
    }
}

/// A condition polled up to a deadline (DelayboxTestSupport's, which this suite does not link).
enum Eventually {
    static func holds(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { return false }
            usleep(10_000)
        }
        return true
    }
}
