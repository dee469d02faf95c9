import DelayboxAnswers
import DelayboxConfig
import DelayboxEngine
import DelayboxJSON
import DelayboxLog
import DelayboxPlatform
import DelayboxUnits

/// `delaybox play`'s output: a line per thing that happened, its time in seconds since
/// the start, or one JSON object per line (`--json`: docs/stream-events.md).
final class PlayerLog: PlayoutLog {
    private let json: Bool
    private let start: Instant
    private let write: @Sendable (String) -> Void

    init(json: Bool, start: Instant, write: @escaping @Sendable (String) -> Void) {
        self.json = json
        self.start = start
        self.write = write
    }

    func report(_ line: String, level: Logger.Level, at time: Instant) { say(line, at: time) }

    func notification(_ notification: EngineNotification, heardAt: Instant) {
        let seconds = heardAt.seconds - start.seconds
        write(
            json
                ? NotificationLog.json(notification, atSeconds: seconds)
                : String(printf: "%8.2f  ", seconds) + NotificationLog.text(notification))
    }

    func channelStarted(_ channel: Channel, delay: TimeAmount, held: TimeAmount?, heardAt: Instant, switched: Bool) {
        write(
            json
                ? JSONText.encode(
                    answer: PlayLine.channel(name: channel.name, url: channel.streamURL, t: seconds(at: heardAt)))
                : String(printf: "%8.2f  ", heardAt.seconds - start.seconds)
                    + "channel: \(channel.name) (\(channel.streamURL))")
    }

    func ffmpeg(_ line: String) {
        write(json ? JSONText.encode(answer: PlayLine.ffmpeg(line)) : "          ffmpeg: " + line)
    }

    /// A line for people; in JSON, `{"type": "info", "text": …}`.
    func say(_ text: String, at time: Instant) {
        write(
            json
                ? JSONText.encode(answer: PlayLine.info(text, t: seconds(at: time)))
                : String(printf: "%8.2f  ", time.seconds - start.seconds) + text)
    }

    /// Seconds since the start, to the millisecond, for JSON lines.
    private func seconds(at time: Instant) -> Double { ((time.seconds - start.seconds) * 1000).rounded() / 1000 }
}
