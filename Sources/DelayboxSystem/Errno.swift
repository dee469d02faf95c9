#if canImport(Glibc)
    import Glibc
#endif

/// An errno value as a type (what swift-system's `Errno` is; swift-system needs tools 6.1
/// and cannot build for the boards). Thrown by the calls of `FileDescriptor` and `Poll`.
public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
    public let code: Int32

    public init(_ code: Int32) { self.code = code }

    /// The calling thread's errno now: take it right after the call that failed, before
    /// another (a `close` to clean up) changes it.
    public static var current: Errno { Errno(errno) }

    public static let interrupted = Errno(EINTR)
    public static let wouldBlock = Errno(EAGAIN)
    public static let badDescriptor = Errno(EBADF)
    public static let noDevice = Errno(ENODEV)

    /// The system's words for it ("Permission denied").
    public var description: String { String(cString: strerror(code)) }

    /// Calls `call` (a system call that returns -1 and sets errno when it fails) until it
    /// is not interrupted by a signal; returns its result, or throws its errno. The one
    /// place a call is retried on EINTR.
    public static func retryingInterrupts<Result: FixedWidthInteger & SignedInteger>(_ call: () -> Result) throws(Errno)
        -> Result
    {
        while true {
            let result = call()
            if result != -1 { return result }
            let failure = Errno.current
            if failure != .interrupted { throw failure }
        }
    }
}
