import Foundation

/// Waiting for the thing itself, not for a fixed time: a condition polled every 20 ms up to
/// a deadline (issue 43: tests slept fixed seconds, too long on a fast machine, too short
/// on a loaded one).
public enum Eventually {
    /// Whether `condition` held within `seconds`.
    public static func holds(within seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while try !condition() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }
}
