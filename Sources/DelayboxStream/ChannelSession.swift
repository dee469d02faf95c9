import DelayboxEngine
import DelayboxFFmpeg
import DelayboxSimulation
import FoundationEssentials
import DelayboxPlatform

/// One channel playing: its engine (whose delay line holds only this channel's audio),
/// the decoders the engine's read heads use, and, in real time, the stream client that
/// feeds it. A channel switch ends one session and starts another.
///
/// The demo channel (`demo://…`) needs no network: a simulated connection delivers the
/// built-in programme (`DemoProgramme`: a beeped timecode with muted periods and ad
/// breaks) on the same clock. A line-in channel (`alsa:NAME`) is
/// captured from the codec's input (`CaptureClient`) and held uncompressed.
public final class ChannelSession {
    public let channel: Channel
    public let engine: PlaybackEngine
    /// Nil when the owner reads the input itself (`delaybox play --fast`), and for the demo.
    public let client: (any ChannelFeed)?
    private var decoders: [ChannelDecoder] = []
    private var demo: SimulatedNetwork?
    private var demoStart = Instant.zero
    /// Whether the current connection has carried a title yet: its first is the stream's
    /// state as the server resends it to every new listener (engine: announcedAtConnect).
    private var connectionCarriedTitle = false

    /// - Parameter delayMs: the delay to hold, carried over from the previous channel.
    public init(channel: Channel, configuration: EngineConfiguration, delayMs: Int64,
         client clientOptions: StreamClient.Options?, clock: any MonotonicClock) throws {
        self.channel = channel
        var configuration = configuration
        configuration.initialDelayMs = delayMs
        if channel.streamURL.hasPrefix("demo:") {
            engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder(synthesis: DemoProgramme.sample) })
            // A day of events ahead (a few thousand; the engine keeps only the buffer's).
            demo = SimulatedNetwork(packetFrames: 1_152, packetBytes: 384, latencyMs: 20, jitterMs: 5, burstMs: 4_000,
                                    connectAtMs: 0, outages: [],
                                    events: DemoProgramme.events(durationMs: 86_400_000, cycleMs: DemoProgramme.cycleMs(of: channel.streamURL)),
                                    seed: 7)
            client = nil
            return
        }
        if channel.streamURL.hasPrefix("alsa:") {
            engine = try PlaybackEngine(configuration: configuration, decoderFactory: { PCMPacketDecoder() })
            // Capture runs in real time only (not `play --fast`).
            let system = clientOptions == nil ? nil : clock as? SystemClock
            client = system.map { CaptureClient(device: String(channel.streamURL.dropFirst(5)), clock: $0, sleeper: SystemSleeper(clock: $0)) }
            return
        }
        var made: [ChannelDecoder] = []
        engine = try PlaybackEngine(configuration: configuration, decoderFactory: {
            let decoder = ChannelDecoder()
            made.append(decoder)
            return decoder
        })
        decoders = made
        client = clientOptions.map { options in
            var options = options
            // A local file is played as if it were live.
            options.paceAtRealTime = options.paceAtRealTime || Self.isLocalFile(channel.streamURL)
            return StreamClient(url: channel.streamURL, options: options, clock: clock)
        }
    }

    static func isLocalFile(_ url: String) -> Bool { !url.contains("://") || url.hasPrefix("file:") }

    public func start(now: Instant) {
        demoStart = now
        engine.start(now: now)
        client?.start()
    }

    /// Ends the client's thread (blocks up to FFmpeg's interrupt polling interval) and
    /// starts the engine's fade-out, which the next render plays.
    public func stop(now: Instant) {
        client?.stop()
        engine.stop(now: now)
    }

    /// Hands the engine what the client posted (or the demo delivered) up to `now`;
    /// returns what is worth telling the listener beyond the engine's notifications.
    public func applyClientMessages(now: Instant) -> [String] {
        if demo != nil {
            let elapsed = now.nanoseconds - demoStart.nanoseconds
            while demo!.nextTime().nanoseconds <= elapsed {
                let (time, delivery) = demo!.next()
                demo!.apply(delivery, at: time.advanced(byNanoseconds: demoStart.nanoseconds), to: engine)
            }
        }
        return (client?.drain() ?? []).compactMap { apply($0) }
    }

    /// Hands one thing the stream client (or the fast reader) saw to the engine; returns
    /// what is worth telling beyond the engine's notifications (what a new connection carries).
    @discardableResult
    public func apply(_ message: StreamClient.Message) -> String? {
        switch message {
        case .opened(let parameters, let time):
            connectionCarriedTitle = false
            do {
                for decoder in decoders { try decoder.configure(parameters) }
                engine.connectionOpened(now: time)
                return "connected: \(parameters.codecName), \(parameters.sampleRate) Hz, \(parameters.channelCount) ch"
            } catch {
                engine.fail(reason: "cannot decode \(parameters.codecName): \(error)", now: time)
            }
        case .started(let description, let time):
            connectionCarriedTitle = false
            engine.connectionOpened(now: time)
            return description
        case .packet(let packet, let time):
            engine.ingest(packet, now: time)
        case .title(let title, let timestamp, let time):
            let announcedAtConnect = !connectionCarriedTitle
            connectionCarriedTitle = true
            for event in StreamEventConvention.events(fromTitle: title) {
                var startedAgoMs: Int64?
                if case .adBreak(let ad) = event, let startedAt = ad.startedAt {
                    startedAgoMs = Int64(((Date().timeIntervalSince1970 - startedAt) * 1_000).rounded())
                }
                engine.ingest(event: event, connectionTimestamp: timestamp, now: time, announcedAtConnect: announcedAtConnect,
                              startedAgoMs: startedAgoMs)
            }
        case .lost(let reason, let time):
            engine.connectionLost(reason: reason, now: time)
        }
        return nil
    }
}
