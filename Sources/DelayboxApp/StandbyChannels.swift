import DelayboxEngine
import DelayboxStream
import DelayboxLog

/// The channels recorded while another plays (`channels.N.record: true`): each with its
/// own stream client and engine, recording its stream — held compressed, never decoded —
/// within the maximum delay. A switch to one of them plays it at once at the delay in
/// force (`take`); the channel switched from, when it records too, stays here (`keep`).
final class StandbyChannels {
    private var sessions: [String: ChannelSession] = [:]
    private let logger = Logger(label: "delaybox.appliance")

    /// Starts recording every channel of `lineup` with `record` but `playing`.
    init(lineup: ChannelLineup, playing: String, configuration: EngineConfiguration, delayMs: Int64,
         client: StreamClient.Options, clock: any MonotonicClock, now: Instant) throws {
        for channel in lineup.channels where channel.record && channel.name != playing {
            let session = try ChannelSession(channel: channel, configuration: configuration, delayMs: delayMs,
                                             client: client, clock: clock)
            session.start(now: now)
            sessions[channel.name] = session
            logger.info("recording '\(channel.name)' in the background (\(channel.streamURL))")
        }
    }

    /// The channels recorded now, by name.
    var names: [String] { sessions.keys.sorted() }

    /// Once a period: hands each channel what its client received and keeps its buffer
    /// within the maximum delay. Its state changes are logged (a background stream that
    /// cannot connect is worth knowing before the switch), the rest of what it reports is not.
    func poll(now: Instant) {
        for (name, session) in sessions {
            for line in session.applyClientMessages(now: now) { logger.debug("recording '\(name)': \(line)") }
            session.engine.maintain(now: now)
            for notification in session.engine.drainNotifications() {
                if case .stateChanged = notification {
                    logger.info("recording '\(name)': \(NotificationLog.text(notification))")
                }
            }
        }
    }

    /// The recorded session of `name`, no longer recorded here (it plays).
    func take(_ name: String) -> ChannelSession? { sessions.removeValue(forKey: name) }

    /// `session` (another channel plays now) goes on recording here; its playout fades out.
    func keep(_ session: ChannelSession, now: Instant) {
        session.engine.standBy(now: now)
        sessions[session.channel.name] = session
    }

    /// Ends every background client's thread.
    func stop() {
        for session in sessions.values { session.client?.stop() }
    }
}
