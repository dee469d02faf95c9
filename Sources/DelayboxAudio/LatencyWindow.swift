/// The last few latencies measured (a control's touch to its sound at the jack: issue
/// 44's `knob_to_click_ms`), summarised as the console's `stats` gives them. For one
/// thread (the playout's, which takes each new measurement from the audio thread).
public struct LatencyWindow: Sendable, Equatable {
    /// How many latest measurements the summary is over: a minute of turning the knob.
    public static let capacity = 64
    private var microseconds: [Int] = []
    private var next = 0
    /// Measurements taken since the start.
    public private(set) var count = 0

    public init() {}

    public mutating func record(microseconds value: Int) {
        if microseconds.count < Self.capacity {
            microseconds.append(value)
        } else {
            microseconds[next] = value
        }
        next = (next + 1) % Self.capacity
        count += 1
    }

    /// The median, the 95th percentile (nearest rank) and the largest of the window (ms,
    /// to 0.1); nil before the first measurement.
    public var summary: (p50: Double, p95: Double, max: Double)? {
        guard !microseconds.isEmpty else { return nil }
        let sorted = microseconds.sorted()
        func rank(_ fraction: Double) -> Double {
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return Double(sorted[min(max(index, 0), sorted.count - 1)] / 100) / 10
        }
        return (rank(0.5), rank(0.95), rank(1))
    }
}
