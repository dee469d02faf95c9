import DelayboxUnits

/// What the status LED shows for each state of the box, as a level at a moment: on while
/// playing; a slow blink while buffering; a double blink while reconnecting; a fast blink
/// on error; off when stopped or paused.
public enum LEDPattern: Sendable, Equatable {
    case off, on, slowBlink, doubleBlink, fastBlink

    /// The pattern for a session state's name (`SessionState.rawValue`).
    public init(state: String) {
        switch state {
        case "playing": self = .on
        case "buffering", "connecting": self = .slowBlink
        case "reconnecting": self = .doubleBlink
        case "failed": self = .fastBlink
        default: self = .off
        }
    }

    /// Whether the LED is lit at `time` (the pattern's phase is the monotonic clock's).
    public func isLit(at time: Instant) -> Bool {
        let milliseconds = time.nanoseconds / Instant.nanosecondsPerMillisecond
        return switch self {
        case .off: false
        case .on: true
        case .slowBlink: milliseconds % 1_000 < 500  // 1 Hz
        case .fastBlink: milliseconds % 200 < 100  // 5 Hz
        case .doubleBlink:  // two 100 ms flashes each second
            milliseconds % 1_000 < 100 || (200..<300).contains(milliseconds % 1_000)
        }
    }
}
