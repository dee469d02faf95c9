import DelayboxEngine
import DelayboxFFmpeg
import DelayboxLog

/// What the playout tells as it plays, each with its time: `delaybox run` logs it
/// (`ApplianceLog`: the journal), `delaybox play` prints it, timed from its start or as
/// JSON lines (`PlayerLog`).
protocol PlayoutLog: AnyObject, Sendable {
    /// What the stream client, the output or the programme mix reported (connected, the
    /// device opened or lost, a clip ready), at `time`.
    func report(_ line: String, level: Logger.Level, at time: Instant)
    /// An engine notification (a state change, an event taking effect), heard at `heardAt`.
    func notification(_ notification: EngineNotification, heardAt: Instant)
    /// A channel starts to play (`switched`: after another) at `delay`, its first frame
    /// heard at `heardAt`; `held`: what it had recorded in the background.
    func channelStarted(_ channel: Channel, delay: TimeAmount, held: TimeAmount?, heardAt: Instant, switched: Bool)
    /// A message of FFmpeg's own (a certificate refused, a malformed frame).
    func ffmpeg(_ line: String)
}

extension PlayoutLog {
    /// FFmpeg's messages come here from now on (from any thread), not raw to stderr.
    func receiveFFmpegMessages() { FFmpegLog.install { [self] line in ffmpeg(line) } }
}
