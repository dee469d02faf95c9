import DelayboxUnits
import Glibc

/// Fast spins move further: the interval between detents scales the step, from the base
/// step when the knob turns slowly up to `maxMultiplier` times it when it spins.
public struct KnobAcceleration: Sendable {
    /// At or above this interval between detents: the base step.
    public var slow: TimeAmount = .milliseconds(150)
    /// At or below this interval: the largest step.
    public var fast: TimeAmount = .milliseconds(25)
    public var maxMultiplier: Double = 10
    private var lastDetent: Instant?

    public init() {}

    /// The step multiplier for a detent at `time`: between 1 and `maxMultiplier`,
    /// geometric in between so the speed-up feels even.
    public mutating func multiplier(forDetentAt time: Instant) -> Double {
        defer { lastDetent = time }
        guard let last = lastDetent else { return 1 }
        let interval = time - last
        if interval >= slow { return 1 }
        if interval <= fast { return maxMultiplier }
        return Self.multiplier(at: (slow - interval).seconds / (slow - fast).seconds, max: maxMultiplier)
    }

    /// Between 1 (`position` 0: slow) and `max` (1: fast), geometric so that each equal
    /// step in between feels the same; to 0.01.
    public static func multiplier(at position: Double, max: Double) -> Double {
        (pow(max, Swift.min(1, Swift.max(0, position))) * 100).rounded() / 100
    }
}
