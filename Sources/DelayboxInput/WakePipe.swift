import CInput

#if canImport(Glibc)
    import Glibc
#endif

/// Ends a thread's wait on a device at once: the waiting thread polls its read end along
/// with the device, any other thread writes a byte (`wake()`).
public final class WakePipe: Sendable {
    let readEnd: Int32
    private let writeEnd: Int32

    public init() throws(InputError) {
        var ends: [Int32] = [-1, -1]
        guard dbx_input_wake_pipe(&ends) == 0 else { throw InputError.from(errno: errno, path: "a wake-up pipe") }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    deinit {
        close(readEnd)
        close(writeEnd)
    }

    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Empties the pipe once its wake-up was seen.
    func drain() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &bytes, bytes.count) > 0 {}
    }
}
