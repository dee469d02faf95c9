import DelayboxEngine

/// Renders an engine the way a DAC would (one period at a time on a manual timeline)
/// and keeps everything it heard, with the state at every period.
public final class RecordingOutput {
    public let periodFrames: Int
    /// Frames from a rendered frame until it is audible, as told to the engine.
    public let outputDelayFrames: Int
    /// Every rendered sample, interleaved stereo.
    public private(set) var samples: [Float] = []
    /// The engine's state after each period.
    public private(set) var states: [SessionState] = []
    /// Every notification, with the output frame of the period that produced it.
    public private(set) var notifications: [(frame: Int64, notification: EngineNotification)] = []
    private var buffer: [Float]
    /// Runs on each period after the engine rendered it, before its notifications are
    /// drained (the programme mix), with the engine's frame count before the period.
    public var afterRender: ((UnsafeMutableBufferPointer<Float>, Int64) -> Void)?

    public init(periodFrames: Int = 960, outputDelayFrames: Int = 0) {
        self.periodFrames = periodFrames
        self.outputDelayFrames = outputDelayFrames
        buffer = [Float](repeating: 0, count: periodFrames * AudioFormat.channelCount)
    }

    /// Frames rendered so far.
    public var frameCount: Int64 { Int64(samples.count / AudioFormat.channelCount) }

    /// Renders one period at `now`.
    public func renderPeriod(_ engine: PlaybackEngine, now: Instant) {
        let first = engine.renderedFrames
        buffer.withUnsafeMutableBufferPointer {
            engine.render(into: $0, now: now, outputDelayFrames: outputDelayFrames)
            afterRender?($0, first)
        }
        let frame = frameCount
        samples.append(contentsOf: buffer)
        states.append(engine.state)
        for notification in engine.drainNotifications() { notifications.append((frame, notification)) }
    }

    /// The left channel of frames `range`.
    /// A period the engine did not render (another channel's).
    public func recordSilentPeriod() {
        samples.append(contentsOf: repeatElement(0, count: periodFrames * AudioFormat.channelCount))
    }

    public func left(_ range: Range<Int>) -> [Float] { range.map { samples[2 * $0] } }
    /// The right channel of frame `frame`.
    public func right(_ frame: Int) -> Float { samples[2 * frame + 1] }
}
