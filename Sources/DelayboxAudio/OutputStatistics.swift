/// The output's trouble counts.
public struct OutputStatistics: Sendable {
    /// Underruns the device recovered from (ALSA's xruns).
    public var xruns = 0
    /// Periods the audio thread filled with silence because the playout thread was late.
    public var lateRenders = 0
    /// Times the device was lost and reopened.
    public var deviceLosses = 0
    /// From a control's touch (the kernel's timestamp of the edge or key) to its sound's
    /// first frame at the jack, for the latest sounds.
    public var touchToSound = LatencyWindow()
    /// The audio thread's SCHED_FIFO priority, 0 at normal priority.
    public var audioThreadPriority: Int32 = 0

    public init(
        xruns: Int = 0, lateRenders: Int = 0, deviceLosses: Int = 0, touchToSound: LatencyWindow = LatencyWindow(),
        audioThreadPriority: Int32 = 0
    ) {
        (self.xruns, self.lateRenders, self.deviceLosses, self.touchToSound, self.audioThreadPriority) = (
            xruns, lateRenders, deviceLosses, touchToSound, audioThreadPriority
        )
    }
}
