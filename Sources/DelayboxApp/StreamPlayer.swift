import DelayboxEngine
import DelayboxFFmpeg
import DelayboxSimulation
import Foundation

/// `delaybox play`: one stream through the engine to a WAV file (or nowhere), without a
/// board — for trying a stream, diagnostics and tests.
///
/// Real time: the stream client's thread reads the network; this thread owns the engine,
/// applies what the client posted, and renders 20 ms periods paced by the system clock.
/// Fast (`--fast`): one thread reads the input as fast as it can and treats each packet as
/// arriving when its audio is live, on a manual clock — a file plays through in a moment.
public final class StreamPlayer {
    public enum Output: Sendable, Equatable {
        case wav(String)
        case null

        /// Parses `wav:PATH` or `null`.
        public init?(_ text: String) {
            if text == "null" { self = .null; return }
            guard text.hasPrefix("wav:"), text.count > 4 else { return nil }
            self = .wav(String(text.dropFirst(4)))
        }
    }

    public struct Options: Sendable {
        public var url: String
        public var delayMs: Int64 = 5_000
        /// Stop after this much output (s); 0: until interrupted (or, fast, until the audio is out).
        public var seconds: Double = 0
        public var output = Output.null
        public var fast = false
        public var json = false
        public var engine = EngineConfiguration()
        public var client = StreamClient.Options()
        public init(url: String) { self.url = url }
    }

    static let periodFrames = 960
    /// The output delay the engine is told: a WAV file plays each frame as written.
    static let outputDelayFrames = 0

    private let options: Options
    private let log: @Sendable (String) -> Void
    private var decoders: [ChannelDecoder] = []
    private var writer: WavFileWriter?
    private var start = Instant.zero

    public init(options: Options, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.log = log
    }

    /// Plays until done; returns the engine's final status.
    @discardableResult
    public func run() throws -> EngineStatus {
        var configuration = options.engine
        configuration.initialDelayMs = options.delayMs
        let engine = try PlaybackEngine(configuration: configuration, decoderFactory: { [unowned self] in
            let decoder = ChannelDecoder()
            decoders.append(decoder)
            return decoder
        })
        if case .wav(let path) = options.output { writer = try WavFileWriter(path: path) }
        let json = options.json, log = self.log
        FFmpegLog.install { line in
            log(json ? NotificationLog.jsonLine(["type": "ffmpeg", "message": line]) : "          ffmpeg: " + line)
        }
        let status = options.fast ? try runFast(engine) : try runRealTime(engine)
        try writer?.close()
        return status
    }

    private func runRealTime(_ engine: PlaybackEngine) throws -> EngineStatus {
        let clock = SystemClock()
        var clientOptions = options.client
        clientOptions.paceAtRealTime = clientOptions.paceAtRealTime || Self.isLocalFile(options.url)
        let client = StreamClient(url: options.url, options: clientOptions, clock: clock)
        var pacer = PeriodPacer(clock: clock, periodFrames: Self.periodFrames, seconds: options.seconds)
        start = pacer.start
        engine.start(now: start)
        client.start()
        defer { client.stop() }
        var period = [Float](repeating: 0, count: Self.periodFrames * AudioFormat.channelCount)
        while let due = pacer.nextPeriod() {
            for message in client.drain() { apply(message, to: engine) }
            renderPeriod(engine, into: &period, at: due)
        }
        return engine.status(at: clock.now())
    }

    private func runFast(_ engine: PlaybackEngine) throws -> EngineStatus {
        let clock = ManualClock()
        start = clock.now()
        engine.start(now: start)
        let input = try FFmpegInput(url: options.url, options: options.client.input, gate: InterruptGate())
        apply(.opened(input.parameters, at: start), to: engine)
        var period = [Float](repeating: 0, count: Self.periodFrames * AudioFormat.channelCount)
        var rendered: Int64 = 0
        var ended = false
        let limit = options.seconds > 0 ? Int64(options.seconds * Double(AudioFormat.sampleRate)) : Int64.max
        while rendered < limit {
            if !ended {
                do {
                    if let packet = try input.readPacket() {
                        // The packet's audio is live when its last frame is.
                        let arrival = start.advanced(byFrames: packet.connectionTimestamp + Int64(packet.durationFrames))
                        while start.advanced(byFrames: rendered) < arrival, rendered < limit {
                            renderPeriod(engine, into: &period, at: start.advanced(byFrames: rendered))
                            rendered += Int64(Self.periodFrames)
                        }
                        clock.set(arrival)
                        apply(.packet(packet, at: arrival), to: engine)
                        if let title = input.takeTitle() {
                            apply(.title(title, connectionTimestamp: packet.connectionTimestamp, at: arrival), to: engine)
                        }
                        continue
                    }
                    apply(.lost("end of stream", at: start.advanced(byFrames: rendered)), to: engine)
                } catch {
                    apply(.lost("\(error)", at: start.advanced(byFrames: rendered)), to: engine)
                }
                ended = true
            }
            let now = start.advanced(byFrames: rendered)
            if options.seconds <= 0, engine.status(at: now).bufferedAheadMs == 0 { break }
            renderPeriod(engine, into: &period, at: now)
            rendered += Int64(Self.periodFrames)
        }
        return engine.status(at: start.advanced(byFrames: rendered))
    }

    private func apply(_ message: StreamClient.Message, to engine: PlaybackEngine) {
        switch message {
        case .opened(let parameters, let time):
            do {
                for decoder in decoders { try decoder.configure(parameters) }
                engine.connectionOpened(now: time)
                printNotifications(engine, at: time)
                say("connected: \(parameters.codecName), \(parameters.sampleRate) Hz, \(parameters.channelCount) ch", at: time)
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
    }

    private func renderPeriod(_ engine: PlaybackEngine, into period: inout [Float], at time: Instant) {
        period.withUnsafeMutableBufferPointer { engine.render(into: $0, now: time, outputDelayFrames: Self.outputDelayFrames) }
        period.withUnsafeBufferPointer { writer?.write($0) }
        printNotifications(engine, at: time)
    }

    private func printNotifications(_ engine: PlaybackEngine, at time: Instant) {
        for notification in engine.drainNotifications() {
            let seconds = time.seconds - start.seconds
            log(options.json ? NotificationLog.json(notification, atSeconds: seconds)
                             : String(format: "%8.2f  ", seconds) + NotificationLog.text(notification))
        }
    }

    private func say(_ text: String, at time: Instant) {
        guard !options.json else { return }
        log(String(format: "%8.2f  ", time.seconds - start.seconds) + text)
    }

    static func isLocalFile(_ url: String) -> Bool { !url.contains("://") || url.hasPrefix("file:") }
}
