import DelayboxConfig
import DelayboxDoors
import DelayboxEngine
import DelayboxFFmpeg
import DelayboxOutput
import DelayboxPlatform
import DelayboxService
import DelayboxSimulation
import DelayboxStream
import FoundationEssentials

/// `delaybox play`: one stream through the engine to a sound card, a WAV file or nowhere,
/// without a board — for trying a stream, diagnostics and tests.
///
/// Real time: the same `Playout` as the appliance's, on a board of the channels given
/// (`BoardConfig.player`): no controls, no console, no programme mix, nothing saved. The
/// stream client's thread reads the network; this thread runs the playout, which renders
/// into the output's ring; the audio thread writes the ring to the device. A channel
/// switch (`PlayerRequests`) fades the old channel out and starts the new one at the
/// same delay, which its buffer has to fill first.
/// Fast (`--fast`): one thread reads the input as fast as it can and treats each packet as
/// arriving when its audio is live, on a manual clock — a file plays through in a moment.
public final class StreamPlayer {
    public struct Options: Sendable {
        /// The channels; the selected one plays first.
        public var lineup: ChannelLineup
        public var delay = TimeAmount.seconds(5)
        /// Stop after this much output (s); 0: until interrupted (or, fast, until the audio is out).
        public var seconds: Double = 0
        public var output = OutputDevice.null
        /// What the output adds after the device (ms): `audio.output_latency`.
        public var outputLatency = TimeAmount.zero
        public var fast = false
        public var json = false
        public var engine = EngineConfiguration()
        public var client = StreamClient.Options()
        public init(lineup: ChannelLineup) { self.lineup = lineup }
    }

    /// Frames per period: 100 ms for a WAV file or null, which have no latency to keep
    /// low (on this class of machine each wakeup costs ~50 µs of CPU: holding a stream
    /// costs 0.2 s of CPU per minute with 20 ms periods, 0.08 s with 100 ms); 20 ms for a
    /// sound card. Events still take effect on their exact frame.
    var periodFrames: Int { options.output.kind.pacesItself ? 960 : 4_800 }
    /// The output delay the engine is told in fast mode: a WAV file plays each frame as written.
    static let fastOutputDelayFrames = 0

    private var options: Options
    private let requests: PlayerRequests
    private let write: @Sendable (String) -> Void
    private var writer: (any FrameFile)?

    /// - Parameter requests: where other threads ask for channel switches and a stop
    ///   (real time only).
    public init(
        options: Options, requests: PlayerRequests = PlayerRequests(), log: @escaping @Sendable (String) -> Void
    ) {
        self.options = options
        self.requests = requests
        write = log
    }

    /// Plays until done; returns the engine's final status.
    @discardableResult
    public func run() throws -> EngineStatus {
        if options.fast { writer = try options.output.kind.fastWriter() }
        let status = options.fast ? try runFast() : try runRealTime()
        try writer?.close()
        return status
    }

    private func runRealTime() throws -> EngineStatus {
        let clock = SystemClock()
        let sleeper = SystemSleeper(clock: clock)
        var request = OutputDevice.Request()
        request.periodFrames = periodFrames
        let output = OutputPath(
            device: options.output, request: request, mixerControl: nil, clock: clock, sleeper: sleeper)
        let start = clock.now()
        let log = PlayerLog(json: options.json, start: start, write: write)
        log.receiveFFmpegMessages()
        let board = BoardConfig.player(
            channels: options.lineup, device: options.output.description,
            period: .milliseconds(AudioFormat.milliseconds(frames: Int64(periodFrames))), delay: options.delay,
            outputLatency: options.outputLatency)
        let setup = Playout.Setup(
            config: board,
            settings: Settings(delay: options.delay, volume: 100, channel: options.lineup.selected.name),
            client: options.client, log: log, reload: { (board, nil) })
        let inbox = ConsoleInbox()
        let playout = try Playout(
            setup: setup, output: output, inbox: inbox,
            doors: Doors(config: board, inbox: inbox, socketPath: nil, version: DelayboxVersion.string),
            clock: clock, systemd: SystemdNotifier(environment: [:]), now: start)
        defer { playout.close() }
        let requests = self.requests
        let end = try playout.runInRealTime(seconds: options.seconds, sleeper: sleeper) { now in
            for request in requests.take() {
                switch request {
                case .stop: return false
                case .nextChannel: playout.chooseNextChannel()
                case .selectChannel(let name):
                    if !playout.chooseChannel(named: name) { log.say("no channel named '\(name)'", at: now) }
                }
            }
            return true
        }
        playout.fadeOut(now: end)
        output.stop()
        return playout.status(at: end)
    }

    /// Fast: the selected channel only, read on this thread as fast as it can be.
    private func runFast() throws -> EngineStatus {
        let clock = ManualClock()
        let start = clock.now()
        let log = PlayerLog(json: options.json, start: start, write: write)
        log.receiveFFmpegMessages()
        let channel = options.lineup.selected
        let session = try ChannelSession(
            channel: channel, configuration: options.engine, delay: options.delay,
            client: nil, clock: clock)
        let engine = session.engine
        log.channelStarted(channel, delay: options.delay, held: nil, heardAt: start, switched: false)
        session.start(now: start)
        let found = try ChannelInput.open(channel.streamURL, options: options.client.input, gate: InterruptGate())
        let input = found.input
        if let note = found.note {
            for line in session.apply(.resolved(found.streamURL, note: note, at: start)) { log.say(line, at: start) }
        }
        for line in session.apply(.opened(input.parameters, at: start)) { log.say(line, at: start) }
        var period = [Float](repeating: 0, count: periodFrames * AudioFormat.channelCount)
        var rendered: Int64 = 0
        var ended = false
        let limit = options.seconds > 0 ? Int64(options.seconds * Double(AudioFormat.sampleRate)) : Int64.max
        let renderPeriod = { [writer] (time: Instant) in
            period.withUnsafeMutableBufferPointer {
                engine.render(into: $0, now: time, outputDelayFrames: Self.fastOutputDelayFrames)
            }
            period.withUnsafeBufferPointer { writer?.write($0) }
            for notification in engine.drainNotifications() { log.notification(notification, heardAt: time) }
            rendered += Int64(self.periodFrames)
        }
        while rendered < limit {
            if !ended {
                do {
                    if var packet = try input.readPacket() {
                        // Virtual time: arrival is when the packet's audio is live, exactly.
                        packet.receivedAheadFrames = 0
                        // The packet's audio is live when its last frame is.
                        let arrival = start.advanced(
                            byFrames: packet.connectionTimestamp + Int64(packet.durationFrames))
                        while start.advanced(byFrames: rendered) < arrival, rendered < limit {
                            renderPeriod(start.advanced(byFrames: rendered))
                        }
                        clock.set(arrival)
                        session.apply(.packet(packet, at: arrival))
                        while let carried = input.takeTitle() {
                            for line in session.apply(
                                .title(carried.title, connectionTimestamp: carried.connectionTimestamp, at: arrival))
                            {
                                log.say(line, at: arrival)
                            }
                        }
                        continue
                    }
                    session.apply(.lost("end of stream", at: start.advanced(byFrames: rendered)))
                } catch {
                    session.apply(.lost("\(error)", at: start.advanced(byFrames: rendered)))
                }
                ended = true
            }
            let now = start.advanced(byFrames: rendered)
            if options.seconds <= 0, engine.status(at: now).bufferedAhead == .zero { break }
            renderPeriod(now)
        }
        return engine.status(at: start.advanced(byFrames: rendered))
    }
}
