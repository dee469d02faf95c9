import DelayboxEngine

/// A sound card on its own crystal: it plays `rate · (1 + ppm/10⁶)` frames per second of
/// true time and asks for one period whenever one has been played, keeping
/// `periods − 1` periods queued ahead of the jack.
public struct SimulatedDAC {
    public let periodFrames: Int
    public let periods: Int
    public let driftPpm: Double
    /// Periods requested so far.
    public private(set) var requests: Int64 = 0

    public init(periodFrames: Int = 960, periods: Int = 4, driftPpm: Double = 0) {
        self.periodFrames = periodFrames
        self.periods = periods
        self.driftPpm = driftPpm
    }

    /// Frames the DAC plays per second of true time.
    public var framesPerSecond: Double { Double(AudioFormat.sampleRate) * (1 + driftPpm / 1e6) }

    /// Frames queued ahead of the next written frame when a period is requested: the
    /// output delay the engine is told.
    public var queuedFrames: Int { (periods - 1) * periodFrames }

    /// True time of request `index`, for a DAC started at `start`.
    public func requestTime(_ index: Int64, start: Instant) -> Instant {
        start + TimeAmount(nanoseconds: Int64((Double(index) * Double(periodFrames) / framesPerSecond * 1e9).rounded()))
    }

    /// True time at which frame `frame` of the period requested at `requestTime` reaches the jack.
    public func jackTime(ofFrame frame: Int, requestedAt requestTime: Instant) -> Double {
        requestTime.seconds + Double(queuedFrames + frame) / framesPerSecond
    }

    public mutating func countRequest() { requests += 1 }
}
