import DelayboxEngine
import DelayboxFFmpeg

/// One channel playing: its engine (whose delay line holds only this channel's audio),
/// the decoders the engine's read heads use, and, in real time, the stream client that
/// feeds it. A channel switch ends one session and starts another.
final class ChannelSession {
    let channel: Channel
    let engine: PlaybackEngine
    /// Nil when the owner reads the input itself (`delaybox play --fast`).
    let client: StreamClient?
    private var decoders: [ChannelDecoder] = []

    /// - Parameter delayMs: the delay to hold, carried over from the previous channel.
    init(channel: Channel, configuration: EngineConfiguration, delayMs: Int64,
         client clientOptions: StreamClient.Options?, clock: any MonotonicClock) throws {
        self.channel = channel
        var configuration = configuration
        configuration.initialDelayMs = delayMs
        var made: [ChannelDecoder] = []
        engine = try PlaybackEngine(configuration: configuration, decoderFactory: {
            let decoder = ChannelDecoder()
            made.append(decoder)
            return decoder
        })
        decoders = made
        client = clientOptions.map { StreamClient(url: channel.streamURL, options: $0, clock: clock) }
    }

    func start(now: Instant) {
        engine.start(now: now)
        client?.start()
    }

    /// Ends the client's thread (blocks up to FFmpeg's interrupt polling interval) and
    /// starts the engine's fade-out, which the next render plays.
    func stop(now: Instant) {
        client?.stop()
        engine.stop(now: now)
    }

    /// Hands the engine what the client posted since the last call; returns what is worth
    /// telling the listener beyond the engine's notifications.
    func applyClientMessages() -> [String] {
        (client?.drain() ?? []).compactMap { apply($0) }
    }

    /// Hands one thing the stream client (or the fast reader) saw to the engine; returns
    /// what is worth telling beyond the engine's notifications (what a new connection carries).
    @discardableResult
    func apply(_ message: StreamClient.Message) -> String? {
        switch message {
        case .opened(let parameters, let time):
            do {
                for decoder in decoders { try decoder.configure(parameters) }
                engine.connectionOpened(now: time)
                return "connected: \(parameters.codecName), \(parameters.sampleRate) Hz, \(parameters.channelCount) ch"
            } catch {
                engine.fail(reason: "cannot decode \(parameters.codecName): \(error)", now: time)
            }
        case .packet(let packet, let time):
            engine.ingest(packet, now: time)
        case .title(let title, let timestamp, let time):
            for event in StreamEventConvention.events(fromTitle: title) {
                engine.ingest(event: event, connectionTimestamp: timestamp, now: time)
            }
        case .lost(let reason, let time):
            engine.connectionLost(reason: reason, now: time)
        }
        return nil
    }
}
