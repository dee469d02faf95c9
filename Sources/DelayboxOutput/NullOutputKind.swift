import DelayboxAudio
import DelayboxEngine

/// Nothing (`null`), paced at real time: diagnostics, benchmarks, a box that only records.
public struct NullOutputKind: OutputKind {
    public static let scheme = "null"
    public var argument: String? { nil }

    public init() {}

    public init?(argument: String?) {
        guard argument == nil else { return nil }
    }

    public func open(
        _ request: OutputDevice.Request, reopening: Bool, clock: any MonotonicClock,
        sleeper: any Sleeper
    ) throws(OutputError) -> any OutputDriver {
        NullOutput(periodFrames: request.periodFrames, periods: request.periods, clock: clock, sleeper: sleeper)
    }
}
