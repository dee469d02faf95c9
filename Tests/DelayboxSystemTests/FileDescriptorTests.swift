import DelayboxSystem
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(10))) struct FileDescriptorTests {
    /// Whether `descriptor` names an open file in this process.
    static func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) != -1 }

    @Test func aDescriptorIsClosedWhenItsOwnerLetsGo() throws {
        var number: Int32 = -1
        do {
            let null = try FileDescriptor.open("/dev/null", O_RDONLY)
            number = null.rawValue
            #expect(Self.isOpen(number))
        }
        #expect(!Self.isOpen(number), "closed when it went out of scope")
    }

    /// `close()` closes it at once and says so; the number is free for the next file, which
    /// stays open when the first one's owner lets go (its close is not made twice).
    @Test func anExplicitCloseFreesTheNumberForTheNextFile() throws {
        var first: FileDescriptor? = try FileDescriptor.open("/dev/null", O_RDONLY)
        let number = try #require(first).rawValue
        try first?.close()
        let second = try FileDescriptor.open("/dev/zero", O_RDONLY)
        #expect(second.rawValue == number, "the number was reused")
        first = nil
        #expect(Self.isOpen(second.rawValue), "the file that now has the number is still open")
    }

    /// A call after the close is refused, not made on the number another file has now.
    @Test func aCallAfterTheCloseIsRefused() throws {
        let first = try FileDescriptor.open("/dev/null", O_RDONLY)
        try first.close()
        try first.close()  // a second close does nothing
        let second = try FileDescriptor.open("/dev/zero", O_RDONLY)
        #expect(second.rawValue == first.rawValue)
        var buffer = [UInt8](repeating: 1, count: 4)
        var failure: Errno?
        do { _ = try first.read(into: &buffer) } catch { failure = error }
        #expect(failure == .badDescriptor && buffer == [1, 1, 1, 1], "not read from /dev/zero through the old number")
    }

    @Test func aFailedOpenThrowsTheSystemsReason() {
        #expect(throws: Errno(ENOENT)) { _ = try FileDescriptor.open("/nonexistent/delaybox", O_RDONLY) }
        #expect(Errno(ENOENT).description == "No such file or directory")
    }

    /// Everything opened here is close-on-exec: no child (espeak-ng, a shell) inherits it.
    @Test func descriptorsAreClosedOnExec() throws {
        let null = try FileDescriptor.open("/dev/null", O_RDONLY)
        #expect(fcntl(null.rawValue, F_GETFD) & FD_CLOEXEC != 0)
    }

    @Test func writesAtAnOffsetAreReadBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("delaybox-fd-\(UUID().uuidString)")
            .path
        defer { unlink(path) }
        let file = try FileDescriptor.open(path, O_RDWR | O_CREAT, permissions: 0o600)
        let text = Array("delaybox".utf8)
        try file.writeAll(text, at: 100)
        var back = [UInt8](repeating: 0, count: 8)
        let count = try file.read(into: &back, at: 100)
        #expect(count == 8 && back == text)
        #expect(try String(contentsOfFile: path, encoding: .utf8).utf8.count == 108)
    }

    @Test func aNonBlockingReadThatFindsNothingSaysWouldBlock() throws {
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        let reading = FileDescriptor(adopting: ends[0])
        let writing = FileDescriptor(adopting: ends[1])
        try reading.makeNonBlocking()
        var buffer = [UInt8](repeating: 0, count: 4)
        var failure: Errno?
        do { _ = try reading.read(into: &buffer) } catch { failure = error }
        #expect(failure == .wouldBlock)
        #expect(try writing.write([1, 2, 3][...]) == 3)
        #expect(try reading.wait(for: Int16(POLLIN), timeoutMs: 1_000).contains(.readable))
        #expect(try reading.read(into: &buffer) == 3)
    }
}
