import DelayboxEngine
import DelayboxSimulation

/// An engine wired to a hand-driven live tone source and a recording output on a
/// manual timeline, stepping one 20 ms packet and one 20 ms period at a time.
public final class EngineRig {
    public let engine: PlaybackEngine
    public var feed = ToneFeed(packetFrames: 960, packetBytes: 320)
    public let output: RecordingOutput
    public let clock = ManualClock()
    /// The next packet the source completes.
    public private(set) var nextPacket: Int64
    /// Whether the client is connected (receives live packets).
    public private(set) var connected = false
    /// Connected but the server sends nothing (a stall); the backlog arrives at once
    /// when the stall ends, as from a frozen Icecast.
    public var stalled = false {
        didSet {
            guard !stalled, connected else { return }
            for index in backlog { deliver(index) }
            backlog.removeAll()
        }
    }
    private var backlog: [Int64] = []
    /// Packets a segment when the stream is delivered a segment at a time (HLS): each
    /// packet reaches the box when the packet completing its segment has been live (a
    /// playlist reloaded at once); nil: packet by packet, as Icecast sends.
    public let segmentPackets: Int64?
    /// Steps run so far.
    private var periods: Int64 = 0
    /// Packets the source made that never reach the box: the next one says audio was lost
    /// before it (an HLS segment that left the playlist before it was fetched).
    public var lostOnTheWay: Range<Int64> = 0..<0
    /// Events to stamp on packets as they are delivered: source packet index → event.
    public var events: [Int64: StreamEvent] = [:]

    public var now: Instant { clock.now() }
    /// When the rig started; period p is rendered 20·(p+1) ms later.
    public let renderStart: Instant

    /// Starts a session whose source has been live for `historyPackets` packets; the
    /// first connection gets a burst of the newest `burstPackets`.
    public init(
        configuration: EngineConfiguration, historyPackets: Int64 = 500, burstPackets: Int64 = 200,
        outputDelayFrames: Int = 0, segmentPackets: Int64? = nil
    ) throws {
        self.segmentPackets = segmentPackets
        engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder() })
        output = RecordingOutput(periodFrames: 960, outputDelayFrames: outputDelayFrames)
        nextPacket = historyPackets
        clock.set(feed.liveTime(of: historyPackets - 1))
        renderStart = clock.now()
        engine.start(now: now)
        reconnect(burstPackets: burstPackets)
    }

    /// The same, with the first connection's `announcing` events (see `reconnect`).
    public convenience init(
        configuration: EngineConfiguration, burstPackets: Int64, announcing: [StreamEvent],
        startedAgo: TimeAmount?
    ) throws {
        try self.init(configuration: configuration, burstPackets: burstPackets)
        announce(announcing, startedAgo: startedAgo)
    }

    /// Opens a connection now; the server resends its newest `burstPackets` at once, and
    /// with them, as Icecast does for every new listener, its current title's `announcing`
    /// events, at the connection's first metadata block (1 s in at 128 kbps). An ad break
    /// among them that says when it began began `startedAgo` before now.
    public func reconnect(burstPackets: Int64, announcing: [StreamEvent] = [], startedAgo: TimeAmount? = nil) {
        connected = true
        engine.connectionOpened(now: now, segmented: segmentPackets != nil)
        feed.connectionFirstPacket = max(0, nextPacket - burstPackets)
        // Segments: only whole ones are listed yet; the one being made comes when complete.
        let listed = segmentPackets.map { nextPacket - nextPacket % $0 } ?? nextPacket
        for index in feed.connectionFirstPacket..<max(feed.connectionFirstPacket, listed) { deliver(index) }
        if segmentPackets != nil { backlog = Array(max(feed.connectionFirstPacket, listed)..<nextPacket) }
        announce(announcing, startedAgo: startedAgo)
    }

    /// The connection's current title's events, at its first metadata block (1 s in).
    private func announce(_ events: [StreamEvent], startedAgo: TimeAmount?) {
        for event in events {
            engine.ingest(
                event: event, connectionTimestamp: Int64(AudioFormat.sampleRate), now: now, announcedAtConnect: true,
                startedAgo: startedAgo)
        }
    }

    /// The connection drops now.
    public func disconnect() {
        connected = false
        engine.connectionLost(reason: "test", now: now)
    }

    private func deliver(_ index: Int64) {
        guard !lostOnTheWay.contains(index) else { return }
        var packet = feed.packet(index)
        packet.followsLostAudio = !lostOnTheWay.isEmpty && index == lostOnTheWay.upperBound
        engine.ingest(packet, now: now)
        if let event = events[index] {
            engine.ingest(
                event: event, connectionTimestamp: (index - feed.connectionFirstPacket) * Int64(feed.packetFrames),
                now: now)
        }
    }

    /// False: another channel has the output (`PlaybackEngine.standBy`); the engine only
    /// records and is maintained, and the output gets that channel's period (silence here).
    public var playing = true

    /// Advances by `milliseconds` in 20 ms steps: the source completes a packet (delivered
    /// if connected and not stalled), then the output renders a period.
    public func run(milliseconds: Int64) {
        for _ in 0..<(milliseconds / 20) { step(rendered: true) }
    }

    /// One step in which playout was late: the output plays a period of silence the engine
    /// never rendered (the audio pump's underrun), so its frames are heard a period later.
    public func missPeriod() { step(rendered: false) }

    private func step(rendered: Bool) {
        // To the next step on the 20 ms grid, wherever `endStall(lateByNanoseconds:)` left it.
        periods += 1
        clock.set(renderStart + periods * .milliseconds(20))
        if connected {
            if stalled || segmentPackets != nil { backlog.append(nextPacket) } else { deliver(nextPacket) }
            if !stalled, let segment = segmentPackets, (nextPacket + 1) % segment == 0 {
                for index in backlog { deliver(index) }
                backlog.removeAll()
            }
        }
        nextPacket += 1
        if playing, rendered {
            output.renderPeriod(engine, now: now)
        } else {
            if rendered { engine.maintain(now: now) }
            output.recordSilentPeriod()
        }
    }

    /// Ends a stall `nanoseconds` after the last step (less than a step): the backlog is read
    /// that late — a loaded box reading its socket late — and the next step is on time.
    public func endStall(lateByNanoseconds nanoseconds: Int64) {
        clock.advance(byNanoseconds: min(nanoseconds, 19_000_000))
        stalled = false
    }

    /// Runs until `condition` holds or `limitMs` passes; returns whether it held.
    public func run(until condition: (EngineRig) -> Bool, limitMs: Int64 = 600_000) -> Bool {
        var elapsed: Int64 = 0
        while !condition(self) {
            if elapsed >= limitMs { return false }
            run(milliseconds: 20)
            elapsed += 20
        }
        return true
    }

    /// The stream frame heard at output frame `frame`, if the frame is an exact code,
    /// unwrapped to the one nearest `reference`.
    public func streamFrame(atOutput frame: Int, near reference: Int64) -> Int64? {
        guard let code = SignalChecks.code(output.samples, frame: frame) else { return nil }
        let period = ToneCodec.codePeriod
        let base = reference - period / 2
        return base + ((code - base) % period + period) % period
    }

    /// When output frame `frame` reaches the jack, in seconds on the source's clock.
    public func jackTime(ofOutput frame: Int) -> Double {
        let period = frame / output.periodFrames
        return renderStart.seconds + Double(period + 1) * 0.02
            + Double(frame % output.periodFrames + output.outputDelayFrames) / Double(AudioFormat.sampleRate)
    }

    /// The delay heard at output frame `frame` (jack time minus when its audio was live), in ms.
    public func heardDelayMs(atOutput frame: Int) -> Double? {
        let time = jackTime(ofOutput: frame)
        let reference = Int64(time * Double(AudioFormat.sampleRate)) - engine.delayInFrames
        guard let streamFrame = streamFrame(atOutput: frame, near: reference) else { return nil }
        return (time - Double(streamFrame) / Double(AudioFormat.sampleRate)) * 1000
    }

    /// Notifications of one kind, in order.
    public func notifications<T>(_ pick: (EngineNotification) -> T?) -> [T] {
        output.notifications.compactMap { pick($0.notification) }
    }
}
