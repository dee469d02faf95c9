import Glibc

/// Standard output and error, written unbuffered and whole (a line reaches the journal or
/// a pipe as it is said, not when a buffer fills).
public enum StandardStream: Int32, Sendable {
    case output = 1
    case error = 2

    /// Writes `text`; what a closed or broken stream refuses is dropped.
    public func write(_ text: String) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(rawValue, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            done += count
        }
    }
}
