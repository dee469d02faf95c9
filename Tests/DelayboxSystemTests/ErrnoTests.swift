import DelayboxSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(10))) struct ErrnoTests {
    /// A call a signal interrupts is made again; what it returns then is the result.
    @Test func anInterruptedCallIsMadeAgain() throws {
        var calls = 0
        let result = try Errno.retryingInterrupts { () -> Int in
            calls += 1
            guard calls > 2 else {
                errno = EINTR
                return -1
            }
            return 5
        }
        #expect(result == 5 && calls == 3)
    }

    @Test func anyOtherFailureIsThrownAtOnce() {
        var calls = 0
        #expect(throws: Errno(EACCES)) {
            try Errno.retryingInterrupts { () -> Int32 in
                calls += 1
                errno = EACCES
                return -1
            }
        }
        #expect(calls == 1)
        #expect(Errno(EACCES).description == "Permission denied")
    }

    /// A wait on a descriptor that is not open is the descriptor's event (POLLNVAL), not a
    /// failed wait; a wait that nothing ends times out with 0.
    @Test func pollSaysWhatCameOnEachDescriptor() throws {
        var descriptors = [pollfd(fd: 987_654, events: Int16(POLLIN), revents: 0)]
        #expect(try Poll.wait(&descriptors, .none) == 1)
        #expect(Poll.Events(rawValue: descriptors[0].revents).contains(.notOpen))
        var none: [pollfd] = []
        #expect(try Poll.wait(&none, .atMost(.milliseconds(10))) == 0)
    }
}
