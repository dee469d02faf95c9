import DelayboxEngine
import Glibc

/// A live source behind an Icecast-like server, as one client sees it over a network.
///
/// The source produces packet k (stream frames k·P ..< (k+1)·P) at source time
/// (k+1)·P / (rate · (1 + stationPpm/10⁶)): its encoder's sound card on its own crystal. A connected client gets each packet after the network latency plus
/// jitter (in order). On every (re)connect the server first resends the packets of the
/// last `burst` (its connect burst), all at once. During an outage nothing arrives; the
/// client learns of the loss at its start and reconnects at its end. Connection
/// timestamps restart at each connection, as FFmpeg's do, so a client can only splice
/// a reconnect by content. How a station is delivered beyond that — HLS segments, a path
/// that changes, heavy-tailed jitter, a variable bitrate — is its `DeliveryModel`.
public struct SimulatedNetwork {
    /// One thing the client sees.
    public enum Delivery: Equatable {
        case opened
        case packet(index: Int64, connectionTimestamp: Int64, readBeforeBatching: Bool)
        case event(StreamEvent, connectionTimestamp: Int64)
        case lost
    }

    public struct Outage: Equatable, Sendable {
        /// Start, in source time.
        public var at: TimeAmount
        public var length: TimeAmount
        public init(at: TimeAmount, length: TimeAmount) { (self.at, self.length) = (at, length) }
    }

    /// A congested path: packets produced from `at` for `length` (source time) take
    /// `extra` longer to arrive.
    public struct Congestion: Equatable, Sendable {
        public var at: TimeAmount
        public var length: TimeAmount
        public var extra: TimeAmount
        public init(at: TimeAmount, length: TimeAmount, extra: TimeAmount) {
            (self.at, self.length, self.extra) = (at, length, extra)
        }
    }

    /// How the stream reaches the client beyond a fixed latency and uniform jitter
    /// (issue 67: stations as they are delivered).
    public struct DeliveryModel: Equatable, Sendable {
        /// HLS: the stream cut into segments of this length (by stream time), each published
        /// once whole and fetched when the box's playlist polls (`HLSPollSchedule`, dense
        /// around the time the next is due) see it listed; a (re)connect starts three whole
        /// segments behind the live end. nil: a continuous stream (Icecast).
        public var hlsSegment: TimeAmount?
        /// The path's latency from a moment (source time) on: a route or a CDN edge changed.
        public var pathChanges: [PathChange] = []
        /// Heavy-tailed extra latency per packet (a mobile or Wi-Fi path): Pareto of shape
        /// 1.5 above this scale, so most packets add little and a few a lot; capped at 50
        /// times it. Zero: none.
        public var jitterTail = TimeAmount.zero
        /// A variable bitrate: the packets' sizes alternate every 10 s between speech's
        /// (half the nominal) and music's (one and a half times it).
        public var variableBitrate = false

        public init() {}
    }

    /// From `at` (source time since the source began), packets take `latency` to arrive.
    public struct PathChange: Equatable, Sendable {
        public var at: TimeAmount
        public var latency: TimeAmount
        public init(at: TimeAmount, latency: TimeAmount) { (self.at, self.latency) = (at, latency) }
    }

    /// The three whole segments a (re)connect to an HLS stream starts with.
    public static let hlsStartSegments: Int64 = 3
    /// How long a speech or music passage of a variable-bitrate stream lasts (frames).
    static let bitratePassageFrames = AudioFormat.frames(milliseconds: 10_000)
    /// The heavy tail's largest multiple of its scale.
    static let jitterTailCap = 50.0

    public let packetFrames: Int
    public let packetBytes: Int
    let latencyNs: Int64
    let model: DeliveryModel
    /// The HLS segment's length in stream frames; nil: not HLS.
    private let segmentFrames: Int64?
    /// When the box polls the playlist (source time: each answer comes a latency later),
    /// and its last poll.
    private var polls = HLSPollSchedule(targetDuration: .zero, newestDuration: .zero)
    private var lastPoll = Instant.zero
    /// The last HLS segment whose arrival was worked out, and that arrival.
    private var arrivingSegment: (index: Int64, at: Instant)?
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
        packetFrames: Int, packetBytes: Int, latency: TimeAmount, jitter: TimeAmount, burst: TimeAmount,
        connectAt: Instant, outages: [Outage], events: [(at: TimeAmount, event: StreamEvent)],
        silentPackets: [Range<Int64>] = [], stationPpm: Double = 0, congestions: [Congestion] = [],
        readBatching: ReadBatching? = nil, model: DeliveryModel = DeliveryModel(), seed: UInt64
    ) {
        self.model = model
        segmentFrames = model.hlsSegment.map {
            max(AudioFormat.frames(milliseconds: $0.milliseconds), Int64(packetFrames))
        }
        self.readBatching = readBatching
        self.congestions = congestions
        stationRate = 1 + stationPpm / 1e6
        self.packetFrames = packetFrames
        self.packetBytes = packetBytes
        latencyNs = latency.nanoseconds
        jitterNs = jitter.nanoseconds
        burstFrames = burst.audioFrames
        self.outages = outages.sorted { $0.at < $1.at }
        self.events = events.map { ($0.at.audioFrames, $0.event) }.sorted {
            $0.frame < $1.frame
        }
        self.silentPackets = silentPackets
        random = SplitMix64(seed: seed)
        firstConnect = connectAt
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
            firstFrame: index * Int64(packetFrames), frames: packetFrames, bytes: bytes(of: index),
            silent: isSilent(index))
    }

    /// The size of packet `index`: the nominal one, or at a variable bitrate its passage's.
    public func bytes(of index: Int64) -> Int {
        guard model.variableBitrate else { return packetBytes }
        let speech = (index * Int64(packetFrames) / Self.bitratePassageFrames) % 2 == 0
        return speech ? packetBytes / 2 : packetBytes * 3 / 2
    }

    /// Packets that never reach the client: produced during an outage and too old for
    /// the reconnect's burst. The ground truth the engine's `lostFrames` is checked against.
    public func lostPackets() -> [Range<Int64>] {
        let frames = Int64(packetFrames)
        return outages.compactMap { outage in
            let start = streamFrames(at: Instant.zero + outage.at)
            let end = streamFrames(at: Instant.zero + outage.at + outage.length)
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
            engine.connectionOpened(now: time, segmented: model.hlsSegment != nil, segmentDuration: model.hlsSegment)
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
            if produced == firstConnect || segmentFrames != nil { return }  // the connection carried it
        }
        if outageIndex < outages.count {
            let outage = outages[outageIndex]
            let start = Instant.zero + outage.at, end = start + outage.length
            if connected, produced >= start {
                connected = false
                lastArrival = max(lastArrival, start)
                queue.append((lastArrival, .lost))
            }
            if !connected {
                if produced < end { return }
                outageIndex += 1
                connect(at: end)
                if produced == end || segmentFrames != nil { return }  // the connection carried it
            }
        }
        let congested = congestions.first {
            produced >= Instant.zero + $0.at && produced < Instant.zero + $0.at + $0.length
        }
        let extraNs = (congested?.extra ?? .zero).nanoseconds
        if segmentFrames != nil {
            deliver(index, at: hlsArrival(of: index) + TimeAmount(nanoseconds: extraNs))
        } else {
            deliver(index, at: produced + TimeAmount(nanoseconds: latency(at: produced) + extraNs + jitter()))
        }
    }

    /// The path's latency at source time `time` (ns).
    private func latency(at time: Instant) -> Int64 {
        let change = model.pathChanges.last { Instant.zero + $0.at <= time }
        return change?.latency.nanoseconds ?? latencyNs
    }

    /// The HLS segment packet `index` begins in.
    private func segment(of index: Int64, frames: Int64) -> Int64 { index * Int64(packetFrames) / frames }

    /// The first packet of HLS segment `segment`.
    private func firstPacket(ofSegment segment: Int64, frames: Int64) -> Int64 {
        (segment * frames + Int64(packetFrames) - 1) / Int64(packetFrames)
    }

    /// When packet `index` of an HLS stream reaches the client: with its whole segment, at the
    /// first playlist poll after the segment's last packet was made, and a download's
    /// latency and jitter later.
    private mutating func hlsArrival(of index: Int64) -> Instant {
        guard let frames = segmentFrames else { preconditionFailure("not an HLS stream") }
        let segment = segment(of: index, frames: frames)
        if let arriving = arrivingSegment, arriving.index == segment { return arriving.at }
        let published = productionTime(of: firstPacket(ofSegment: segment + 1, frames: frames) - 1)
        var reload = lastPoll
        while reload < published {
            polls.polled(at: reload, newSegmentLasting: nil)
            reload = polls.nextPoll(after: reload, draw: Double.random(in: 0..<1, using: &random))
        }
        polls.polled(
            at: reload,
            newSegmentLasting: TimeAmount(
                nanoseconds: frames * Instant.nanosecondsPerSecond / Int64(AudioFormat.sampleRate)))
        lastPoll = reload
        let at = reload.advanced(byNanoseconds: latency(at: reload) + jitter())
        arrivingSegment = (segment, at)
        return at
    }

    /// Opens a connection at source time `time`: the connect burst arrives at once — the
    /// server's last `burst`, or an HLS stream's three newest whole segments (the packets
    /// made since, of the segment under way, come with it once it is published).
    private mutating func connect(at time: Instant) {
        connected = true
        let arrival = time + TimeAmount(nanoseconds: latency(at: time))
        lastArrival = max(lastArrival, arrival)
        connectedAt = lastArrival
        if let frames = segmentFrames {
            let length = TimeAmount(nanoseconds: frames * Instant.nanosecondsPerSecond / Int64(AudioFormat.sampleRate))
            polls = HLSPollSchedule(targetDuration: length, newestDuration: length)
        }
        lastPoll = time
        arrivingSegment = nil
        pauseUntil = .zero
        queue.append((lastArrival, .opened))
        var newestDone = streamFrames(at: time) / Int64(packetFrames) - 1
        var first = max(0, newestDone - burstFrames / Int64(packetFrames) + 1)
        if let frames = segmentFrames {
            var newestSegment = segment(of: newestDone, frames: frames)
            if firstPacket(ofSegment: newestSegment + 1, frames: frames) - 1 > newestDone { newestSegment -= 1 }
            first = firstPacket(ofSegment: max(0, newestSegment - Self.hlsStartSegments + 1), frames: frames)
            newestDone = firstPacket(ofSegment: newestSegment + 1, frames: frames) - 1
        }
        connectionFirstFrame = first * Int64(packetFrames)
        // An HLS connection takes every packet made so far, the one being made too.
        let last = segmentFrames == nil ? min(newestDone, nextPacket - 1) : nextPacket - 1
        var index = first
        while index <= last {
            deliver(index, at: index <= newestDone ? arrival : hlsArrival(of: index))
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
            if !beforeBatching, readBatching.pause > .zero {
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

    /// A packet's random extra latency (ns): uniform up to `jitter`, and the heavy tail.
    private mutating func jitter() -> Int64 {
        var extra = jitterNs == 0 ? 0 : Int64(random.next() % UInt64(jitterNs + 1))
        if model.jitterTail > .zero {
            // Pareto by inversion: u in (0, 1], the scale times u^(-1/1.5) above the scale.
            let u = Double(random.next() >> 11 + 1) / Double(1 << 53)
            let multiple = min(pow(u, -1 / 1.5) - 1, Self.jitterTailCap)
            extra += Int64(multiple * Double(model.jitterTail.nanoseconds))
        }
        return extra
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
