import DelayboxSystem
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(10))) struct FileDescriptorTests {
    /// Whether `descriptor` names an open file in this process.
    static func isOpen(_ descriptor: Int32) -> Bool { fcntl(descriptor, F_GETFD) != -1 }

    /// The file `descriptor` names in this process, if it is open.
    static func path(of descriptor: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
    }

    /// /dev/zero opened as `number`, if that number is free: other suites open and close
    /// files at the same time, so the next open may get another number freed meanwhile (it
    /// did: 6 for a 7 just closed). Opens until it gets it, and closes the others.
    static func reopen(as number: Int32) throws -> FileDescriptor? {
        var others: [FileDescriptor] = []
        defer { others.forEach { try? $0.close() } }
        for _ in 0..<64 {
            let zero = try FileDescriptor.open("/dev/zero", O_RDONLY)
            if zero.rawValue == number { return zero }
            others.append(zero)
        }
        return nil
    }

    @Test func aDescriptorIsClosedWhenItsOwnerLetsGo() throws {
        // A file of this test's own: another suite may open the number once it is free.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("delaybox-fd-\(UUID().uuidString)")
            .path
        defer { unlink(path) }
        var number: Int32 = -1
        do {
            let file = try FileDescriptor.open(path, O_RDWR | O_CREAT, permissions: 0o600)
            number = file.rawValue
            #expect(Self.path(of: number) == path)
        }
        #expect(Self.path(of: number) != path, "closed when it went out of scope")
    }

    /// `close()` closes it at once and says so; the number is free for the next file, which
    /// stays open when the first one's owner lets go (its close is not made twice).
    @Test func anExplicitCloseFreesTheNumberForTheNextFile() throws {
        var first: FileDescriptor? = try FileDescriptor.open("/dev/null", O_RDONLY)
        let number = try #require(first).rawValue
        try first?.close()
        let second = try #require(try Self.reopen(as: number), "the number was free for the next file")
        first = nil
        #expect(Self.isOpen(second.rawValue), "the file that now has the number is still open")
    }

    /// A call after the close is refused, not made on the number another file has now.
    @Test func aCallAfterTheCloseIsRefused() throws {
        let first = try FileDescriptor.open("/dev/null", O_RDONLY)
        try first.close()
        try first.close()  // a second close does nothing
        let second = try #require(try Self.reopen(as: first.rawValue), "another file has the number now")
        var buffer = [UInt8](repeating: 1, count: 4)
        var failure: Errno?
        do { _ = try first.read(into: &buffer) } catch { failure = error }
        #expect(failure == .badDescriptor && buffer == [1, 1, 1, 1], "not read from /dev/zero through the old number")
        #expect(Self.isOpen(second.rawValue), "the file that has the number now is untouched")
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
        #expect(try reading.wait(for: Int16(POLLIN), .atMost(.seconds(1))).contains(.readable))
        #expect(try reading.read(into: &buffer) == 3)
    }
}
