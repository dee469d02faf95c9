import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// An open file descriptor that is closed exactly once: by `close()`, or when its last
/// owner lets go of it. After a close every call is refused (`.badDescriptor`) instead of
/// being made on the number, which by then may name another file. Every call retries on
/// EINTR (`Errno.retryingInterrupts`) and throws the errno it failed with. (A class, not a
/// non-copyable struct: Swift 6.0.3, the boards' compiler, crashes optimising an
/// initializer that moves one into a stored property.)
public final class FileDescriptor: Sendable {
    private let number: Int32
    private let closed = Atomic<Bool>(false)

    /// The kernel's number for it, for calls this type does not wrap (`ioctl`, termios,
    /// a `pollfd`): meaningful while it is open.
    public var rawValue: Int32 { number }

    /// Takes ownership of an open descriptor (from `open`, `socket`, a C helper).
    public init(adopting rawValue: Int32) { number = rawValue }

    /// Opens `path` (`open(2)`); `flags` gain O_CLOEXEC, so no child inherits it.
    public static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(adopting: try Errno.retryingInterrupts { Glibc.open(path, flags | O_CLOEXEC, permissions) })
    }

    deinit {
        if !closed.load(ordering: .acquiring) { Glibc.close(number) }
    }

    /// Closes it now, saying whether the kernel took the close (a file's last write error
    /// may come only here); a second close does nothing.
    public func close() throws(Errno) {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Not retried: after EINTR Linux has closed it already, and the number may be reused.
        guard Glibc.close(number) == 0 else { throw Errno.current }
    }

    /// The number, for a call; refused once closed.
    private func liveNumber() throws(Errno) -> Int32 {
        guard !closed.load(ordering: .acquiring) else { throw .badDescriptor }
        return number
    }

    /// Reads what is there, at most `buffer.count` bytes (0: the end, or a hung-up line).
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        let descriptor = try liveNumber()
        return try Errno.retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress, buffer.count) }
    }

    /// `read(into:)` into an array's bytes.
    public func read(into buffer: inout [UInt8]) throws(Errno) -> Int {
        let descriptor = try liveNumber()
        return try Errno.retryingInterrupts {
            buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// Reads up to `buffer.count` bytes from `offset` without moving the file position.
    public func read(into buffer: inout [UInt8], at offset: Int) throws(Errno) -> Int {
        let descriptor = try liveNumber()
        return try Errno.retryingInterrupts {
            buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        }
    }

    /// Writes what the kernel takes of `bytes` now: a non-blocking descriptor may take
    /// less, or throw `.wouldBlock`.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let descriptor = try liveNumber()
        return try Errno.retryingInterrupts { Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
    }

    /// `write(_:)` of an array's bytes.
    public func write(_ bytes: ArraySlice<UInt8>) throws(Errno) -> Int {
        let descriptor = try liveNumber()
        return try Errno.retryingInterrupts {
            bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        }
    }

    /// Sends all of `bytes` on a connected socket: a short send is followed by one that
    /// takes the rest. A peer that went away is `EPIPE`, never SIGPIPE (whose default
    /// ends the whole process: a client that hangs up must not stop the box).
    public func sendAll(_ bytes: [UInt8]) throws(Errno) {
        let descriptor = try liveNumber()
        var done = 0
        while done < bytes.count {
            done += try Errno.retryingInterrupts {
                bytes[done...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// Writes all of `bytes` at `offset`, without moving the file position (a short write
    /// is followed by one that takes the rest, or fails and says why: EFBIG at a file size
    /// limit). Allocates nothing.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Errno) {
        try Self.writeAll(try liveNumber(), bytes, at: offset)
    }

    /// `writeAll(_:at:)` of an array's bytes.
    public func writeAll(_ bytes: [UInt8], at offset: Int) throws(Errno) {
        let descriptor = try liveNumber()
        // (withUnsafeBytes rethrows an untyped error: the failure is carried out as a value.)
        let failure = bytes.withUnsafeBytes { bytes in
            Self.failure { () throws(Errno) in try Self.writeAll(descriptor, bytes, at: offset) }
        }
        if let failure { throw failure }
    }

    /// `writeAll(_:at:)` of a 32-bit value's little-endian bytes (a header's size field).
    public func writeAll(littleEndian value: UInt32, at offset: Int) throws(Errno) {
        let descriptor = try liveNumber()
        let failure = withUnsafeBytes(of: value.littleEndian) { bytes in
            Self.failure { () throws(Errno) in try Self.writeAll(descriptor, bytes, at: offset) }
        }
        if let failure { throw failure }
    }

    private static func failure(of call: () throws(Errno) -> Void) -> Errno? {
        do {
            try call()
            return nil
        } catch {
            return error
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let rest = UnsafeRawBufferPointer(rebasing: bytes[done...]), at = off_t(offset + done)
            done += try Errno.retryingInterrupts { pwrite(descriptor, rest.baseAddress, rest.count, at) }
        }
    }

    /// Waits until what was written is on the disk (`fsync(2)`); a directory's, until the
    /// names made or renamed in it are.
    public func sync() throws(Errno) {
        let descriptor = try liveNumber()
        _ = try Errno.retryingInterrupts { fsync(descriptor) }
    }

    /// Makes reads and writes return at once (`.wouldBlock`) instead of waiting.
    public func makeNonBlocking() throws(Errno) {
        let descriptor = try liveNumber()
        let flags = try Errno.retryingInterrupts { fcntl(descriptor, F_GETFL) }
        _ = try Errno.retryingInterrupts { fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) }
    }

    /// What `poll` says of `events` (POLLIN, POLLOUT) within `wait`: the events that came,
    /// empty on timeout.
    public func wait(for events: Int16, _ wait: Poll.Wait) throws(Errno) -> Poll.Events {
        var descriptor = [pollfd(fd: try liveNumber(), events: events, revents: 0)]
        return try Poll.wait(&descriptor, wait) > 0 ? Poll.Events(descriptor[0].revents) : []
    }
}
