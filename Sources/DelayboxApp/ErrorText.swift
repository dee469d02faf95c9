import FoundationEssentials
import Glibc

/// An error as a maintainer reads it: the system's words for a failed file operation
/// ("Permission denied", "No space left on device"), whatever layer reported it.
enum ErrorText {
    static func of(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError, let posix = cocoa.userInfo["NSUnderlyingError"] as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        return "\(error)"
    }
}
