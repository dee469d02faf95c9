import DelayboxEngine

/// A live source behind an Icecast-like server, as one client sees it over a network.
///
/// The source produces packet k (stream frames k·P ..< (k+1)·P) at source time
/// (k+1)·P / (rate · (1 + stationPpm/10⁶)): its encoder's sound card on its own crystal. A connected client gets each packet after the network latency plus
/// jitter (in order). On every (re)connect the server first resends the packets of the
/// last `burst` (its connect burst), all at once. During an outage nothing arrives; the
/// client learns of the loss at its start and reconnects at its end. Connection
/// timestamps restart at each connection, as FFmpeg's do, so a client can only splice
/// a reconnect by content.
public struct SimulatedNetwork {
    /// One thing the client sees.
    public enum Delivery: Equatable {
        case opened
        case packet(index: Int64, connectionTimestamp: Int64, readBeforeBatching: Bool)
        case event(StreamEvent, connectionTimestamp: Int64)
        case lost
    }

    public struct Outage: Equatable, Sendable {
        /// Start, in ms of source time.
        public var atMs: Int64
        public var lengthMs: Int64
        public init(atMs: Int64, lengthMs: Int64) {
            self.atMs = atMs
            self.lengthMs = lengthMs
        }
    }

    /// A congested path: packets produced from `atMs` for `lengthMs` (source time) take
    /// `extraMs` longer to arrive.
    public struct Congestion: Equatable, Sendable {
        public var atMs: Int64
        public var lengthMs: Int64
        public var extraMs: Int64
        public init(atMs: Int64, lengthMs: Int64, extraMs: Int64) {
            self.atMs = atMs
            self.lengthMs = lengthMs
            self.extraMs = extraMs
        }
    }

    public let packetFrames: Int
    public let packetBytes: Int
    let latencyNs: Int64
    /// Stream frames the station makes per frame of true time.
    let stationRate: Double
    let jitterNs: Int64
    let burstFrames: Int64
    let outages: [Outage]
    let congestions: [Congestion]
    /// Events by the stream frame they are stamped on.
    let events: [(frame: Int64, event: StreamEvent)]
    /// Packets whose index lies in one of these ranges are digital silence.
    let silentPackets: [Range<Int64>]
    private var random: SplitMix64

    private var queue: [(time: Instant, delivery: Delivery)] = []
    private var queueHead = 0
    /// Next packet the source will produce.
    private var nextPacket: Int64 = 0
    private var connectionFirstFrame: Int64 = 0
    private var connected = false
    private var started = false
    /// Source time of the client's first connection.
    public let firstConnect: Instant
    private var lastArrival = Instant.zero
    /// The client's pauses between reads (`ReadBatching`), nil for none: a packet that
    /// arrives during a pause is stamped when the pause ends; the first after it, on the
    /// moment it comes, and the client pauses again.
    var readBatching: ReadBatching?
    private var connectedAt = Instant.zero
    private var pauseUntil = Instant.zero
    /// When the newest packet came (its read may be later: `lastArrival`).
    private var lastCame = Instant.zero
    private var outageIndex = 0

    public init(
        packetFrames: Int, packetBytes: Int, latencyMs: Int64, jitterMs: Int64, burstMs: Int64,
        connectAtMs: Int64, outages: [Outage], events: [(atMs: Int64, event: StreamEvent)],
        silentPackets: [Range<Int64>] = [], stationPpm: Double = 0, congestions: [Congestion] = [],
        readBatching: ReadBatching? = nil, seed: UInt64
    ) {
        self.readBatching = readBatching
        self.congestions = congestions
        stationRate = 1 + stationPpm / 1e6
        self.packetFrames = packetFrames
        self.packetBytes = packetBytes
        latencyNs = latencyMs * Instant.nanosecondsPerMillisecond
        jitterNs = jitterMs * Instant.nanosecondsPerMillisecond
        burstFrames = AudioFormat.frames(milliseconds: burstMs)
        self.outages = outages.sorted { $0.atMs < $1.atMs }
        self.events = events.map { (AudioFormat.frames(milliseconds: $0.atMs), $0.event) }.sorted {
            $0.frame < $1.frame
        }
        self.silentPackets = silentPackets
        random = SplitMix64(seed: seed)
        firstConnect = Instant.milliseconds(connectAtMs)
    }

    /// Source time at which packet `index` is complete.
    public func productionTime(of index: Int64) -> Instant {
        let frames = (index + 1) * Int64(packetFrames)
        guard stationRate != 1 else { return Instant.zero.advanced(byFrames: frames) }
        let seconds = Double(frames) / stationRate / Double(AudioFormat.sampleRate)
        return Instant.seconds(seconds)
    }

    /// Stream frames the station has made by source time `time`.
    func streamFrames(at time: Instant) -> Int64 {
        Int64((Double(time.frames(since: .zero)) * stationRate).rounded(.down))
    }

    /// Whether packet `index` is digital silence.
    public func isSilent(_ index: Int64) -> Bool { silentPackets.contains { $0.contains(index) } }

    /// The payload of packet `index`.
    public func payload(of index: Int64) -> [UInt8] {
        ToneCodec.packet(
            firstFrame: index * Int64(packetFrames), frames: packetFrames, bytes: packetBytes,
            silent: isSilent(index))
    }

    /// Packets that never reach the client: produced during an outage and too old for
    /// the reconnect's burst. The ground truth the engine's `lostFrames` is checked against.
    public func lostPackets() -> [Range<Int64>] {
        let frames = Int64(packetFrames)
        return outages.compactMap { outage in
            let start = streamFrames(at: .milliseconds(outage.atMs))
            let end = streamFrames(at: .milliseconds(outage.atMs + outage.lengthMs))
            let firstDropped = (start + frames - 1) / frames - 1  // first packet completed at or after start
            let newestInBurst = end / frames - 1
            let lastLost = newestInBurst - burstFrames / frames
            return lastLost >= firstDropped ? max(firstDropped, 0)..<(lastLost + 1) : nil
        }
    }

    /// Hands `delivery`, which arrived at `time`, to `engine` as a stream client would.
    public func apply(_ delivery: Delivery, at time: Instant, to engine: PlaybackEngine) {
        switch delivery {
        case .opened:
            engine.connectionOpened(now: time)
        case .lost:
            engine.connectionLost(reason: "simulated outage", now: time)
        case .packet(let index, let timestamp, let readBeforeBatching):
            var packet = StreamPacket(
                payload: payload(of: index), connectionTimestamp: timestamp, durationFrames: packetFrames)
            packet.readBeforeBatching = readBeforeBatching
            engine.ingest(packet, now: time)
        case .event(let event, let timestamp):
            engine.ingest(event: event, connectionTimestamp: timestamp, now: time)
        }
    }

    /// The time of the next delivery (nil never happens: the source is endless).
    public mutating func nextTime() -> Instant {
        fill()
        return queue[queueHead].time
    }

    /// Takes the next delivery.
    public mutating func next() -> (time: Instant, delivery: Delivery) {
        fill()
        let item = queue[queueHead]
        queueHead += 1
        if queueHead > 4_096 {
            queue.removeFirst(queueHead)
            queueHead = 0
        }
        return item
    }

    private mutating func fill() {
        while queueHead >= queue.count { produceNext() }
    }

    /// Produces the next packet at the source and decides what the client sees of it.
    private mutating func produceNext() {
        let index = nextPacket
        nextPacket += 1
        let produced = productionTime(of: index)
        if !started {
            if produced < firstConnect { return }
            started = true
            connect(at: firstConnect)
            if produced == firstConnect { return }  // the burst carried it
        }
        if outageIndex < outages.count {
            let outage = outages[outageIndex]
            let start = Instant.milliseconds(outage.atMs), end = Instant.milliseconds(outage.atMs + outage.lengthMs)
            if connected, produced >= start {
                connected = false
                lastArrival = max(lastArrival, start)
                queue.append((lastArrival, .lost))
            }
            if !connected {
                if produced < end { return }
                outageIndex += 1
                connect(at: end)
                if produced == end { return }  // the burst carried it
            }
        }
        let congested = congestions.first {
            produced >= .milliseconds($0.atMs) && produced < .milliseconds($0.atMs + $0.lengthMs)
        }
        let extraNs = (congested?.extraMs ?? 0) * Instant.nanosecondsPerMillisecond
        deliver(index, at: produced + TimeAmount(nanoseconds: latencyNs + extraNs + jitter()))
    }

    /// Opens a connection at source time `time`: the connect burst arrives at once.
    private mutating func connect(at time: Instant) {
        connected = true
        let arrival = time + TimeAmount(nanoseconds: latencyNs)
        lastArrival = max(lastArrival, arrival)
        connectedAt = lastArrival
        pauseUntil = .zero
        queue.append((lastArrival, .opened))
        let newestDone = streamFrames(at: time) / Int64(packetFrames) - 1
        let burstPackets = burstFrames / Int64(packetFrames)
        let first = max(0, newestDone - burstPackets + 1)
        connectionFirstFrame = first * Int64(packetFrames)
        var index = first
        while index <= newestDone, index < nextPacket {
            deliver(index, at: arrival)
            index += 1
        }
    }

    private mutating func deliver(_ index: Int64, at time: Instant) {
        lastArrival = max(lastArrival, time)
        var beforeBatching = false
        if var readBatching {
            defer { self.readBatching = readBatching }
            // Packets come in order: this one no earlier than the one before it came.
            lastCame = max(lastCame, time)
            beforeBatching = readBatching.isBeforeBatching(now: lastCame, connected: connectedAt)
            if !beforeBatching, readBatching.pauseMs > 0 {
                if lastCame < pauseUntil {
                    lastArrival = max(lastArrival, pauseUntil)
                } else {
                    pauseUntil = lastCame + TimeAmount(nanoseconds: readBatching.nextPause())
                }
            }
        }
        let firstFrame = index * Int64(packetFrames)
        let timestamp = firstFrame - connectionFirstFrame
        queue.append(
            (lastArrival, .packet(index: index, connectionTimestamp: timestamp, readBeforeBatching: beforeBatching)))
        // Events are sorted: find the first at or after the packet by bisection (the demo
        // channel holds a day of them).
        var low = 0, high = events.count
        while low < high {
            let middle = (low + high) / 2
            if events[middle].frame < firstFrame { low = middle + 1 } else { high = middle }
        }
        for (frame, event) in events[low...] {
            guard frame < firstFrame + Int64(packetFrames) else { break }
            queue.append((lastArrival, .event(event, connectionTimestamp: frame - connectionFirstFrame)))
        }
    }

    private mutating func jitter() -> Int64 {
        jitterNs == 0 ? 0 : Int64(random.next() % UInt64(jitterNs + 1))
    }
}

/// A small, fast, seedable random generator, so every simulation run is identical.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
