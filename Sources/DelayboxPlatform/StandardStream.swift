import DelayboxSystem
import Glibc

/// Standard output and error, written unbuffered and whole (a line reaches the journal or
/// a pipe as it is said, not when a buffer fills).
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes `text`; what a closed or broken stream refuses is dropped.
    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        let descriptor = rawValue
        var done = 0
        while done < bytes.count {
            let rest = bytes[done...]
            let count = try? Errno.retryingInterrupts {
                rest.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            }
            guard let count, count > 0 else { return }
            done += count
        }
    }
}
