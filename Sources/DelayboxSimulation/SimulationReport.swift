import DelayboxJSON
import FoundationEssentials

/// What a simulation measured. Encoded as JSON with snake_case keys by `jsonString()`.
public struct SimulationReport: Codable, Sendable {
    public var durationS: Double
    public var delayS: Double
    public var driftPpm: Double
    public var outages: [String]
    /// |heard − set| delay at the simulated jack, over every checked frame while playing.
    public var delayErrorMsMax: Double
    public var delayErrorMsP99: Double
    public var delayErrorMsMean: Double
    /// The heard delay about its own median (signed error − median), p99 and max: how
    /// steady it is, whatever constant the path's least lag adds (a box takes the tightest
    /// arrival of its first seconds for live: 0 on a steady network, more on a jittery one).
    public var delayErrorMsMedian: Double
    public var delayWanderMsP99: Double
    public var delayWanderMsMax: Double
    /// Frames checked for the delay error (one per DAC period with an exact code).
    public var delayChecks: Int
    public var underruns: Int
    /// Audio lost to outages, as the engine placed it on its timeline.
    public var lostMs: Double
    /// Audio lost to outages, as the simulated server knows it (ground truth).
    public var lostMsExpected: Double
    /// Silence heard while playing that is not lost audio.
    public var gapsMs: Double
    public var splices: Int
    /// Steps in a connection's lag taken for a change of its path (`EngineStatistics.lagSteps`).
    public var lagSteps = 0
    public var resyncs: Int
    /// Single frames slipped to follow the DAC's clock.
    public var driftSlips: Int
    /// The drift the engine measured from its slips (ppm; the scenario's `driftPpm` is
    /// the truth it should find).
    public var driftPpmMeasured: Double
    /// The station's clock error, and what the engine followed at the end (ppm; nil: not
    /// known yet).
    public var stationPpm: Double
    public var stationPpmMeasured: Double?
    public var duplicatePackets: Int
    public var decodeErrors: Int
    public var delayBufferBytes: Int
    public var finalState: String
    public var finalDelayMs: Int64
    public var availableDelayMs: Int64
    public var events: [Event]
    public var stateChanges: [StateChange]
    /// The heard delay's error (ms) per minute of the run, from `measureFromMs` on: how it
    /// locks and whether it then slides.
    public var delayErrorMsByMinute: [Minute]
    /// The largest change of the heard delay between two checks a period apart (ms): a
    /// step at the jack (a crossfade to another position); slips are 1/48 ms.
    public var delayStepMsMax: Double

    public struct Minute: Codable, Sendable, Equatable {
        /// Minutes since the start (0: the first).
        public var minute: Int
        public var minMs: Double
        public var medianMs: Double
        public var maxMs: Double
    }

    public struct Event: Codable, Sendable, Equatable {
        public var kind: String
        /// Stream time of the event, ms from the box's start.
        public var streamMs: Int64
        /// How it took effect (reached, executedByJump, undoneByJump), or "never".
        public var transition: String
        /// Jack time it took effect minus when it should have (reached events only).
        public var firedErrorMs: Double?
    }

    public struct StateChange: Codable, Sendable, Equatable {
        public var atS: Double
        public var from: String
        public var to: String
        public var reason: String
    }

    public func jsonString() -> String { JSONText.pretty(JSONValue(encoding: self).renamingKeys(JSONValue.snakeCased)) }
}
