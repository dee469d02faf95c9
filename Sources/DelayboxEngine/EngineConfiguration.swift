/// Settings of the playback engine: its delays, buffer and the tuning of its corrections.
public struct EngineConfiguration: Sendable, Equatable {
    /// Audio that must be held ahead of playout before playing starts (1-5 s).
    public var initialBuffer = TimeAmount.seconds(1)
    /// The longest delay kept (default 5 min, up to 60 min).
    public var maxDelay = TimeAmount.minutes(5)
    /// The delay to hold at start (e.g. remembered from the last run). Unlike `setDelay`,
    /// it is not clamped to what is available: the engine waits until it is.
    public var initialDelay = TimeAmount.seconds(1)
    /// Length of the crossfade for a delay change or a resynchronisation.
    public var crossfade = TimeAmount.milliseconds(50)
    /// Length of the fade at the edges of lost audio, pause and re-buffering.
    public var fade = TimeAmount.milliseconds(5)
    /// How long after a connection's first packet its placement on the timeline is still
    /// refined from arrival times (when no splice was found).
    public var placementWindow = TimeAmount.seconds(5)
    /// A delay error beyond this is corrected by a crossfaded jump.
    public var resyncThreshold = TimeAmount.milliseconds(50)
    /// When a placement by arrival time settles, an error beyond this is corrected by a
    /// crossfaded jump; smaller ones are left to the drift corrector's slips.
    public var settleError = TimeAmount.milliseconds(2)
    /// While it is still being refined, an error beyond this is corrected at once.
    public var placementError = TimeAmount.milliseconds(10)
    /// How long a reconnect's packets may wait for the content match to decide. A resend
    /// arrives as a burst, far faster than real time; packets still matching old audio
    /// when this has passed are arriving live, so arrival times decide.
    public var spliceDecision = TimeAmount.seconds(2)
    /// How far back a reconnect's first packets are searched for in what was received.
    public var spliceSearch = TimeAmount.seconds(60)
    /// Smallest change of the available delay that is reported.
    public var availableDelayReportStep = TimeAmount.seconds(1)

    /// The rate this station's clock was followed at before (ppm; kept per station by the
    /// box, issue 67): live runs at it from the first packet, so a station played before
    /// starts locked; the arrivals' own fit takes over as it becomes surer
    /// (`StationClock.Fit.joined`). Nil: a station not heard before.
    public var knownStationPpm: Double?

    public init() {}

    /// Allowed range of `initialBuffer` (ms).
    public static let initialBufferRange: ClosedRange<Int64> = 1_000...5_000
    /// Allowed range of `maxDelay`.
    public static let maxDelayRange: ClosedRange<Int64> = 10_000...3_600_000

    /// Every problem with these settings, empty when they are valid.
    public func problems() -> [String] {
        var problems: [String] = []
        func check(_ value: Int64, _ range: ClosedRange<Int64>, _ name: String) {
            if !range.contains(value) {
                problems.append("\(name) is \(value) ms; allowed \(range.lowerBound)-\(range.upperBound) ms")
            }
        }
        func check(_ value: TimeAmount, _ range: ClosedRange<Int64>, _ name: String) {
            check(value.milliseconds, range, name)
        }
        check(initialBuffer, Self.initialBufferRange, "initial buffer")
        check(maxDelay, Self.maxDelayRange, "maximum delay")
        check(initialDelay, 0...maxDelay.milliseconds, "initial delay")
        check(crossfade, 1...1_000, "crossfade")
        check(fade, 1...100, "fade")
        check(placementWindow, 0...60_000, "placement window")
        check(resyncThreshold, 1...10_000, "resync threshold")
        check(spliceDecision, 100...60_000, "splice decision time")
        check(spliceSearch, 1_000...600_000, "splice search window")
        if let ppm = knownStationPpm, !(abs(ppm) <= StationClock.plausiblePpm) {
            problems.append("a station's known clock error is \(ppm) ppm; allowed within ±1000")
        }
        return problems
    }
}

/// Thrown when a configuration (engine settings, channel lineup) is invalid; lists every problem.
public struct InvalidConfiguration: Error, CustomStringConvertible {
    public var problems: [String]
    public var description: String { "invalid configuration: " + problems.joined(separator: "; ") }
}
