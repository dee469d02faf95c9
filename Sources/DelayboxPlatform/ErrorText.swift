import DelayboxSystem
import FoundationEssentials
import Glibc

/// An error as a maintainer reads it: the system's words for a failed file operation
/// ("Permission denied", "No space left on device"), whatever layer reported it. The one
/// place the root turns an errno into words.
public enum ErrorText {
    public static func of(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return system(posix.code.rawValue) }
        if let cocoa = error as? CocoaError, let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
            return system(posix.code.rawValue)
        }
        return "\(error)"
    }

    /// The system's words for an errno value. Take `errno` into a constant right after the
    /// call that failed: a later call (a `close` to clean up) may change it.
    public static func system(_ code: Int32) -> String { Errno(code).description }
}
