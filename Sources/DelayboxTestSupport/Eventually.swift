import Foundation

/// Waiting for the thing itself, not for a fixed time: a condition polled up to a deadline
/// (issue 43: tests slept fixed seconds, too long on a fast machine, too short on a loaded
/// one). The one way the tests wait; a wait that runs out says what it waited for.
public enum Eventually {
    /// A wait that ran out: what was waited for, and how long.
    public struct TimedOut: Error, CustomStringConvertible {
        public var description: String
    }

    /// Whether `condition` held within `seconds`, asked every `interval` seconds.
    public static func holds(within seconds: Double, every interval: Double = 0.02, _ condition: () throws -> Bool)
        rethrows -> Bool
    {
        try value(within: seconds, every: interval) { try condition() ? true : nil } ?? false
    }

    /// The first value `probe` gives within `seconds` (asked every `interval` seconds), or nil.
    public static func value<Value>(
        within seconds: Double, every interval: Double = 0.02, _ probe: () throws -> Value?
    ) rethrows -> Value? {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            if let value = try probe() { return value }
            guard Date() < deadline else { return nil }
            Thread.sleep(forTimeInterval: interval)
        }
    }

    /// The first value `probe` gives within `seconds`; thrown `TimedOut` names `what` when
    /// none came.
    public static func value<Value>(
        of what: String, within seconds: Double, every interval: Double = 0.02, _ probe: () throws -> Value?
    ) throws -> Value {
        guard let value = try value(within: seconds, every: interval, probe) else {
            throw TimedOut(description: "waited \(seconds) s for \(what), in vain")
        }
        return value
    }

    /// Returns once `condition` holds; thrown `TimedOut` names `what` when it did not within
    /// `seconds`.
    public static func wait(
        for what: String, within seconds: Double, every interval: Double = 0.02, until condition: () throws -> Bool
    ) throws {
        _ = try value(of: what, within: seconds, every: interval) { try condition() ? true : nil }
    }
}
