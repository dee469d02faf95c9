import DelayboxAudio
import DelayboxConfig
import DelayboxEngine

/// The box as the playout holds it at one wake-up, handed to each answer: what it plays,
/// the config in force, the output's figures. The answers keep no copy of any of it.
public struct BoxSnapshot {
    /// The playing channel's engine (the playout thread owns it; answers ask it and move it).
    public var engine: PlaybackEngine
    /// Carries out the listener's commands on the engine and the settings.
    public var executor: CommandExecutor
    public var channel: Channel
    public var config: BoardConfig
    /// The same config as written, every value with its file and line (`config get`); nil
    /// when the files cannot be read again.
    public var document: ConfigNode?
    /// The output's trouble counts.
    public var output: OutputStatistics
    /// The playout thread's SCHED_FIFO priority, 0 at normal priority (`stats`).
    public var playoutThreadPriority: Int32
    /// The channels recorded in the background (`status` lists them).
    public var recording: [String]
    /// Recent stream events as the log printed them, newest last (`events`).
    public var recentEvents: [String]
    /// Whether a new release may restart the box now (`update_restart`).
    public var updateGate: UpdateRestartGate
    /// Whether the box looks for a new release every night (`update daily`).
    public var dailyUpdates: Bool

    public init(
        engine: PlaybackEngine, executor: CommandExecutor, channel: Channel, config: BoardConfig,
        document: ConfigNode?, output: OutputStatistics, playoutThreadPriority: Int32, recording: [String],
        recentEvents: [String], updateGate: UpdateRestartGate, dailyUpdates: Bool
    ) {
        (self.engine, self.executor, self.channel, self.config, self.document) = (
            engine, executor, channel, config, document
        )
        (self.output, self.playoutThreadPriority, self.recording, self.recentEvents, self.updateGate) = (
            output, playoutThreadPriority, recording, recentEvents, updateGate
        )
        self.dailyUpdates = dailyUpdates
    }
}
