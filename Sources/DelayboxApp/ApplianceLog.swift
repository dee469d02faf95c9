import DelayboxAnswers
import DelayboxEngine
import DelayboxLog

/// `delaybox run`'s account of its playout, in the journal (docs/daemon.md).
final class ApplianceLog: PlayoutLog {
    private let logger = Logger(label: "delaybox.appliance")
    private let ffmpegLogger = Logger(label: "delaybox.ffmpeg")
    /// For the first line: the board's name and the output.
    private let board: String
    private let output: String

    init(board: String, output: String) {
        self.board = board
        self.output = output
    }

    func report(_ line: String, level: Logger.Level, at time: Instant) { logger.log(level, line) }

    func notification(_ notification: EngineNotification, heardAt: Instant) {
        logger.log(NotificationLog.level(of: notification), NotificationLog.text(notification))
    }

    func channelStarted(_ channel: Channel, delay: TimeAmount, held: TimeAmount?, heardAt: Instant, switched: Bool) {
        guard switched else {
            return logger.info(
                "delaybox \(DelayboxVersion.string) on \(board): channel '\(channel.name)', delay \(delay.milliseconds) ms, output \(output)"
            )
        }
        let held = held.map { ", recorded in the background: \($0.milliseconds) ms held" } ?? ""
        logger.info("channel: \(channel.name) (\(channel.streamURL)), delay \(delay.milliseconds) ms\(held)")
    }

    /// At DEBUG: their reason is also in the line that says what failed (`reconnect
    /// failed: … (Peer certificate failed verification)`).
    func ffmpeg(_ line: String) { ffmpegLogger.debug("\(line)") }
}
