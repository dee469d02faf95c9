import ArgumentParser

/// A command-line duration in seconds as milliseconds, refused (not trapped on) when it is
/// negative, not a number, or beyond a day.
func milliseconds(_ seconds: Double, _ option: String) throws -> Int64 {
    guard seconds >= 0, seconds <= 86_400 else {
        throw ValidationError("\(option) must be 0 to 86400 seconds; got \(seconds)")
    }
    return Int64((seconds * 1000).rounded())
}
