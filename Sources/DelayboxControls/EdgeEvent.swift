import DelayboxUnits

/// One edge on an input line, as the kernel reported it (libgpiod line events carry the
/// kernel's timestamp of the edge, not when we read it).
public struct EdgeEvent: Sendable, Equatable {
    /// The line's offset on its chip (BCM number on a Raspberry Pi).
    public var line: Int
    /// The electrical level after the edge (true: high).
    public var high: Bool
    /// Monotonic time of the edge.
    public var time: Instant

    public init(line: Int, high: Bool, at time: Instant) {
        self.line = line
        self.high = high
        self.time = time
    }
}
