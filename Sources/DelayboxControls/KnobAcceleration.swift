import Glibc

/// Fast spins move further: the interval between detents scales the step, from the base
/// step when the knob turns slowly up to `maxMultiplier` times it when it spins.
public struct KnobAcceleration: Sendable {
    /// At or above this interval between detents (ns): the base step.
    public var slowNs: Int64 = 150_000_000
    /// At or below this interval (ns): the largest step.
    public var fastNs: Int64 = 25_000_000
    public var maxMultiplier: Double = 10
    private var lastDetent: Int64?

    public init() {}

    /// The step multiplier for a detent at `nanoseconds`: between 1 and `maxMultiplier`,
    /// geometric in between so the speed-up feels even.
    public mutating func multiplier(forDetentAt nanoseconds: Int64) -> Double {
        defer { lastDetent = nanoseconds }
        guard let last = lastDetent else { return 1 }
        let interval = nanoseconds - last
        if interval >= slowNs { return 1 }
        if interval <= fastNs { return maxMultiplier }
        return Self.multiplier(at: Double(slowNs - interval) / Double(slowNs - fastNs), max: maxMultiplier)
    }

    /// Between 1 (`position` 0: slow) and `max` (1: fast), geometric so that each equal
    /// step in between feels the same; to 0.01.
    public static func multiplier(at position: Double, max: Double) -> Double {
        (pow(max, Swift.min(1, Swift.max(0, position))) * 100).rounded() / 100
    }
}
