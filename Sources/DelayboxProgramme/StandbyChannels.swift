import DelayboxEngine
import DelayboxLog
import DelayboxStream

/// The channels recorded while another plays (`channels.N.record: true`): each with its
/// own stream client and engine, recording its stream — held compressed, never decoded —
/// within the maximum delay. A switch to one of them plays it at once at the delay in
/// force (`take`); the channel switched from, when it records too, stays here (`keep`).
public final class StandbyChannels {
    private var sessions: [String: ChannelSession] = [:]
    private let logger = Logger(label: "delaybox.appliance")
    private let configuration: EngineConfiguration
    private let client: StreamClient.Options
    private let clock: any MonotonicClock
    /// The wall clock as `board.clock` says to believe it (ChannelSession).
    private let wallClock: @Sendable () -> Double?

    /// Starts recording every channel of `lineup` with `record` but `playing`.
    public init(
        lineup: ChannelLineup, playing: String, configuration: EngineConfiguration, delay: TimeAmount,
        client: StreamClient.Options, clock: any MonotonicClock, wallClock: @escaping @Sendable () -> Double?,
        now: Instant
    ) throws {
        (self.configuration, self.client, self.clock, self.wallClock) = (configuration, client, clock, wallClock)
        try reconcile(with: lineup, playing: playing, delay: delay, now: now)
    }

    /// Records what `lineup` says, `playing` aside (a reload): a channel newly marked
    /// `record` starts recording, one no longer marked or no longer there stops, and one
    /// whose definition changed (its URL, say) records anew from the new one — before, the
    /// set was made once, and a switch to a changed channel played its old URL (issue 44).
    public func reconcile(with lineup: ChannelLineup, playing: String, delay: TimeAmount, now: Instant) throws {
        let wanted = Dictionary(
            uniqueKeysWithValues: lineup.channels.filter { $0.record && $0.name != playing }.map { ($0.name, $0) })
        for (name, session) in sessions where wanted[name] != session.channel {
            session.stop(now: now)
            sessions[name] = nil
            if wanted[name] == nil { logger.info("'\(name)' is no longer recorded in the background") }
        }
        for (name, channel) in wanted.sorted(by: { $0.key < $1.key }) where sessions[name] == nil {
            let session = try ChannelSession(
                channel: channel, configuration: configuration, delay: delay, client: client, clock: clock,
                unixTime: wallClock)
            session.start(now: now)
            sessions[name] = session
            logger.info("recording '\(name)' in the background (\(channel.streamURL))")
        }
    }

    /// The channels recorded now, by name.
    public var names: [String] { sessions.keys.sorted() }

    /// Once a period: hands each channel what its client received and keeps its buffer
    /// within the maximum delay. Returns its state changes, by channel name (a background
    /// stream that cannot connect is worth knowing before the switch); the rest of what it
    /// reports is not told.
    @discardableResult
    public func poll(now: Instant) -> [(channel: String, change: EngineNotification)] {
        var changes: [(channel: String, change: EngineNotification)] = []
        for (name, session) in sessions {
            for line in session.applyClientMessages(now: now) { logger.debug("recording '\(name)': \(line)") }
            session.engine.maintain(now: now)
            for change in session.engine.drainNotifications() {
                if case .stateChanged = change { changes.append((name, change)) }
            }
        }
        return changes
    }

    /// The recorded session of `name`, no longer recorded here (it plays).
    public func take(_ name: String) -> ChannelSession? { sessions.removeValue(forKey: name) }

    /// `session` (another channel plays now) goes on recording here; its playout fades out.
    public func keep(_ session: ChannelSession, now: Instant) {
        session.engine.standBy(now: now)
        sessions[session.channel.name] = session
    }

    /// Ends every background client's thread.
    public func stop() {
        for session in sessions.values { session.client?.stop() }
    }
}
