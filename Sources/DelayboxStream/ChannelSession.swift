import DelayboxChecked
import DelayboxEngine
import DelayboxFFmpeg
import DelayboxPlatform
import DelayboxSimulation
import FoundationEssentials

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
    /// Journals what the client sees, for the next process (`DelayJournal`); nil: none.
    public private(set) var journal: DelayJournal?
    private var journalProblemSaid = false
    /// When a live mark was last journalled.
    private var lastLiveMark = Instant.zero
    /// How often live's place is journalled (`LiveMark`): a restart holds the last one,
    /// and a fit of the arrivals may move live as often in a connection's first minute.
    static let liveMarkInterval = TimeAmount.seconds(1)
    private var demo: SimulatedNetwork?
    private var demoStart = Instant.zero
    /// Whether the current connection has carried a title yet: its first is the stream's
    /// state as the server resends it to every new listener (engine: announcedAtConnect).
    private var connectionCarriedTitle = false
    /// What this connection's titles had refused: said once per connection, not at every
    /// repeat of a title that stands (Icecast resends it to every new listener).
    private var refusedOnThisConnection: Set<String> = []
    /// The stream a station link led to on this connection: its host may serve ads too.
    private var resolvedStreamURL: String?
    /// Now by the wall clock (Unix time, s): where an ad tag's START is compared; nil while
    /// that clock cannot be believed (a Pi before the network time: `WallClock`).
    private let unixTime: @Sendable () -> Double?
    private let clock: any MonotonicClock
    /// How far ahead of this box's clock a break's START may be (s): two clocks kept by NTP
    /// agree within a second; a minute covers one set by hand.
    static let plausibleClockErrorSeconds: Double = 60
    /// The longest delay the box holds: a break that ended longer ago than this is
    /// over wherever playout can be. (One that ended less long ago may still be ahead of a
    /// delayed listener: the engine decides where playout is.)
    private let maxDelay: TimeAmount

    /// - Parameters:
    ///   - delay: the delay to hold, carried over from the previous channel.
    ///   - knownStationPpm: the station's clock error as followed when it last played
    ///     (`EngineConfiguration.knownStationPpm`); nil: not known.
    public init(
        channel: Channel, configuration: EngineConfiguration, delay: TimeAmount, knownStationPpm: Double? = nil,
        client clientOptions: StreamClient.Options?, clock: any MonotonicClock,
        unixTime: @escaping @Sendable () -> Double? = WallClock.synchronisedUnixTime
    ) throws {
        self.channel = channel
        self.unixTime = unixTime
        self.clock = clock
        maxDelay = configuration.maxDelay
        var configuration = configuration
        configuration.initialDelay = delay
        // A value from the state file: one out of range (an edited file) is not a known rate.
        configuration.knownStationPpm = knownStationPpm.flatMap { abs($0) <= 1_000 ? $0 : nil }
        if channel.streamURL.hasPrefix("demo:") {
            engine = try PlaybackEngine(
                configuration: configuration, decoderFactory: { ToneDecoder(synthesis: DemoProgramme.sample) })
            // A day of events ahead (a few thousand; the engine keeps only the buffer's).
            demo = SimulatedNetwork(
                packetFrames: 1_152, packetBytes: 384, latency: .milliseconds(20), jitter: .milliseconds(5),
                burst: .seconds(4), connectAt: .zero, outages: [],
                events: DemoProgramme.events(lasting: .days(1), cycle: DemoProgramme.cycle(of: channel.streamURL)),
                seed: 7)
            client = nil
            return
        }
        if channel.streamURL.hasPrefix("alsa:") {
            engine = try PlaybackEngine(configuration: configuration, decoderFactory: { PCMPacketDecoder() })
            // Capture runs in real time only (not `play --fast`).
            let system = clientOptions == nil ? nil : clock as? SystemClock
            client = system.map {
                CaptureClient(
                    device: String(channel.streamURL.dropFirst(5)), clock: $0, sleeper: SystemSleeper(clock: $0))
            }
            return
        }
        var made: [ChannelDecoder] = []
        engine = try PlaybackEngine(
            configuration: configuration,
            decoderFactory: {
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

    /// Why this channel's titles may not name `url`: its own host, the one its station
    /// link led to, and its `ads_from` may serve ads.
    func adURLProblem(_ url: String) -> String? {
        let linkedHost = resolvedStreamURL.flatMap { ClipURL.host(of: $0) }
        return ClipURL.problem(
            url, streamURL: channel.streamURL, adsFrom: channel.adsFrom + [linkedHost].compactMap { $0 })
    }

    struct StartRefusal: Error { var reason: String }

    /// How long before `arrival` (when its title came), by this box's clock, a break that
    /// began at `startedAt` (Unix time, s) began (ms); refused if it ended longer ago than
    /// the longest delay (over wherever playout can be), begins further in the future than
    /// two clocks plausibly disagree, or this box's clock cannot be believed yet.
    func startedAgo(_ startedAt: Double, durationMs: Int64, arrival: Instant) -> Result<Int64, StartRefusal> {
        guard let wall = unixTime() else {
            return .failure(
                StartRefusal(
                    reason: "this box's clock is not set by the network time yet (no real-time clock: board.clock): "
                        + "the break is taken as one whose start was not heard"))
        }
        // The title waited for this wake-up: its START is compared with the time it came.
        let waitedSeconds = Double(max(0, clock.now().nanoseconds - arrival.nanoseconds)) / 1e9
        let agoSeconds = wall - waitedSeconds - startedAt
        let earliest = Int64(-Self.plausibleClockErrorSeconds * 1_000)
        guard let ago = Checked.scaled(agoSeconds, by: 1_000, in: earliest...(durationMs + maxDelay.milliseconds))
        else {
            let shown = agoSeconds.isFinite ? String(Int64(min(max(agoSeconds, -1e12), 1e12))) : "?"
            return .failure(
                StartRefusal(
                    reason: agoSeconds > 0
                        ? "ad break began \(shown) s ago by this box's clock: its \(durationMs / 1_000) s ended before the longest delay (\(maxDelay.wholeSeconds) s)"
                        : "ad break begins \(shown.dropFirst()) s from now by this box's clock, beyond the clocks' plausible error (\(Int(Self.plausibleClockErrorSeconds)) s)"
                ))
        }
        return .success(ago)
    }

    static func isLocalFile(_ url: String) -> Bool { !url.contains("://") || url.hasPrefix("file:") }

    /// Starts the engine and the stream client. With a `journal`, what the client sees is
    /// journalled for the next process; with `resume`, what an earlier process of this boot
    /// journalled for this link is replayed first (a restart): the engine holds its delay
    /// line again and plays on from it while the client connects, whose audio splices on.
    /// Returns what is worth telling.
    @discardableResult
    public func start(now: Instant, journal: DelayJournal? = nil, resume: Bool = true) -> [String] {
        demoStart = now
        var said: [String] = []
        var last: StreamClient.Message?
        var count = 0
        // Where live was on the connection in progress when the box stopped.
        var mark: LiveMark?
        if resume, client != nil {
            // Message by message into the engine, as the files are read: the journal is
            // never all in memory beside the delay line it rebuilds.
            let reachable = now.advanced(byFrames: -engine.delayInFrames)
            journal?.replay(before: now, reachable: reachable, liveMarks: { mark = $0 }) { message in
                if last == nil { engine.start(now: message.time) }
                engine.passTime(to: message.time)
                apply(message)
                if message.opensAConnection { mark = nil }
                if case .lost = message { mark = nil }
                (last, count) = (message, count + 1)
            }
        }
        if let last {
            if let mark { engine.hold(mark) }
            if case .lost = last {} else { engine.connectionLost(reason: "the box restarted", now: last.time) }
            _ = engine.drainNotifications()
            let held = engine.status(at: now).availableDelay
            said.append("resumed \(held.milliseconds) ms of the delay line from before the restart (\(count) messages)")
        } else {
            engine.start(now: now)
        }
        if client != nil { self.journal = journal }
        client?.start()
        return said
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
                demo!.apply(delivery, at: time + TimeAmount(nanoseconds: demoStart.nanoseconds), to: engine)
            }
        }
        let messages = client?.drain() ?? []
        if let journal {
            for message in messages { journal.record(message) }
            if now - lastLiveMark >= Self.liveMarkInterval, let mark = engine.liveMark(at: now) {
                journal.record(mark)
                lastLiveMark = now
            }
            if let problem = journal.problem, !journalProblemSaid {
                journalProblemSaid = true
                return [problem] + messages.flatMap { apply($0) }
            }
        }
        return messages.flatMap { apply($0) }
    }

    /// Hands one thing the stream client (or the fast reader) saw to the engine; returns
    /// what is worth telling beyond the engine's notifications (what a new connection
    /// carries, what a title had refused), a line each.
    @discardableResult
    public func apply(_ message: StreamClient.Message) -> [String] {
        switch message {
        case .opened(let parameters, let time):
            connectionCarriedTitle = false
            refusedOnThisConnection = []
            do {
                for decoder in decoders { try decoder.configure(parameters) }
                engine.connectionOpened(
                    now: time, segmented: parameters.deliveredInSegments, segmentDuration: parameters.segmentDuration)
                return [
                    "connected: \(parameters.codecName), \(parameters.sampleRate) Hz, \(parameters.channelCount) ch"
                ]
            } catch {
                engine.fail(reason: "cannot decode \(parameters.codecName): \(error)", now: time)
            }
        case .started(let description, let time):
            connectionCarriedTitle = false
            refusedOnThisConnection = []
            engine.connectionOpened(now: time)
            return [description]
        case .packet(let packet, let time):
            engine.ingest(packet, now: time)
        case .title(let title, let timestamp, let time):
            let announcedAtConnect = !connectionCarriedTitle
            connectionCarriedTitle = true
            let reading = StreamEventConvention.read(title: title)
            var refusals = reading.refusals
            for event in reading.events {
                var beganAgo: TimeAmount?
                if case .adBreak(let ad) = event {
                    if let problem = adURLProblem(ad.audioURL) {
                        refusals.append(.init(tag: StreamEventConvention.title(for: event, text: ""), reason: problem))
                        continue
                    }
                    if announcedAtConnect, let startedAt = ad.startedAt {
                        switch startedAgo(startedAt, durationMs: ad.durationMs, arrival: time) {
                        case .success(let ago): beganAgo = .milliseconds(ago)
                        case .failure(let refusal):
                            refusals.append(
                                .init(tag: StreamEventConvention.title(for: event, text: ""), reason: refusal.reason))
                            continue
                        }
                    }
                }
                engine.ingest(
                    event: event, connectionTimestamp: timestamp, now: time, announcedAtConnect: announcedAtConnect,
                    startedAgo: beganAgo)
            }
            return refusals.filter { refusedOnThisConnection.insert($0.description).inserted }
                .map { "refused from the stream's title: \($0) (the rest of the title counts)" }
        case .resolved(let stream, let note, _):
            resolvedStreamURL = stream
            return [note]
        case .lost(let reason, let time):
            engine.connectionLost(reason: reason, now: time)
        }
        return []
    }
}
