import DelayboxEngine
import DelayboxFFmpeg
import DelayboxSimulation
import FoundationEssentials

/// `delaybox play`: one stream through the engine to a WAV file (or nowhere), without a
/// board — for trying a stream, diagnostics and tests.
///
/// Real time: the stream client's thread reads the network; this thread owns the engine,
/// applies what the client posted, and renders into the output's ring, which the audio
/// thread writes to the device (ALSA, a WAV file or null, each at real time).
/// A channel switch (`PlayerRequests`) fades the old channel out within one period and
/// starts the new one with the same delay, which the new channel's buffer has to fill
/// first: its audio starts once that much of it has been recorded.
/// Fast (`--fast`): one thread reads the input as fast as it can and treats each packet as
/// arriving when its audio is live, on a manual clock — a file plays through in a moment.
public final class StreamPlayer {
    public struct Options: Sendable {
        /// The channels; the selected one plays first.
        public var lineup: ChannelLineup
        public var delayMs: Int64 = 5_000
        /// Stop after this much output (s); 0: until interrupted (or, fast, until the audio is out).
        public var seconds: Double = 0
        public var output = OutputDevice.null
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
    var periodFrames: Int { if case .alsa = options.output { 960 } else { 4_800 } }
    /// The output delay the engine is told in fast mode: a WAV file plays each frame as written.
    static let fastOutputDelayFrames = 0

    private var options: Options
    private let requests: PlayerRequests
    private let log: @Sendable (String) -> Void
    private var writer: WavFileWriter?
    private var start = Instant.zero

    /// - Parameter requests: where other threads ask for channel switches and a stop
    ///   (real time only).
    public init(options: Options, requests: PlayerRequests = PlayerRequests(), log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.requests = requests
        self.log = log
    }

    /// Plays until done; returns the engine's final status.
    @discardableResult
    public func run() throws -> EngineStatus {
        if options.fast, case .wav(let path) = options.output { writer = try WavFileWriter(path: path) }
        let json = options.json, log = self.log
        FFmpegLog.install { line in
            log(json ? NotificationLog.jsonLine(["type": "ffmpeg", "message": line]) : "          ffmpeg: " + line)
        }
        let status = options.fast ? try runFast() : try runRealTime()
        try writer?.close()
        return status
    }

    private func runRealTime() throws -> EngineStatus {
        let clock = SystemClock()
        let sleeper = SystemSleeper(clock: clock)
        var request = OutputDevice.Request()
        request.periodFrames = periodFrames
        let output = OutputPath(device: options.output, request: request, mixerControl: nil, clock: clock, sleeper: sleeper)
        start = clock.now()
        var session = try beginSession(delayMs: options.delayMs, clock: clock, at: start)
        defer { session.client?.stop() }
        output.start()
        let limit = options.seconds > 0 ? Int64(options.seconds * Double(AudioFormat.sampleRate)) : Int64.max
        output.frameLimit = limit
        let periodNanoseconds = Int64(periodFrames) * 1_000_000_000 / Int64(AudioFormat.sampleRate)
        var wake = start
        periods: while output.renderedFrames < limit {
            sleeper.sleep(until: wake)
            let now = clock.now()
            wake = max(wake.advanced(byNanoseconds: periodNanoseconds), now.advanced(byNanoseconds: periodNanoseconds / 2))
            var switchTo: Int?
            for request in requests.take() {
                switch request {
                case .stop: break periods
                case .nextChannel: options.lineup.selectNext(); switchTo = options.lineup.selectedIndex
                case .selectChannel(let name):
                    if options.lineup.select(named: name) { switchTo = options.lineup.selectedIndex }
                    else { say("no channel named '\(name)'", at: now) }
                }
            }
            for line in session.applyClientMessages(now: now) { say(line, at: now) }
            if switchTo != nil {
                // The old channel fades out now; the new one starts right after.
                session.stop(now: now)
                render(session.engine, to: output, at: now, minimumPeriods: 1)
                let heard = now.advanced(byFrames: Int64(output.feeder.outputDelayFrames(now: now)))
                session = try beginSession(delayMs: session.engine.status(at: now).delayMs, clock: clock, at: now, heardAt: heard)
            }
            render(session.engine, to: output, at: now)
        }
        let end = clock.now()
        session.stop(now: end)
        render(session.engine, to: output, at: end, minimumPeriods: 1)
        output.stop()
        return session.engine.status(at: end)
    }

    /// Notifications are dated when their period is heard (`now` plus what the ring and
    /// the device hold ahead of it), like the events they report.
    private func render(_ engine: PlaybackEngine, to output: OutputPath, at now: Instant, minimumPeriods: Int = 0) {
        output.feed(now: now, minimumPeriods: minimumPeriods) { buffer, delay in
            engine.render(into: buffer, now: now, outputDelayFrames: delay)
            printNotifications(engine, at: now.advanced(byFrames: Int64(delay)))
        }
        for line in output.report() { say(line, at: now) }
        printNotifications(engine, at: now)
    }

    /// Starts the selected channel: a new engine holding `delayMs`, and its stream client.
    /// The announcement is dated `heardAt`, when the channel's first frame reaches the
    /// output (after what the ring and the device still hold of the old one).
    private func beginSession(delayMs: Int64, clock: SystemClock, at time: Instant, heardAt: Instant? = nil) throws -> ChannelSession {
        let channel = options.lineup.selected
        var clientOptions = options.client
        clientOptions.paceAtRealTime = clientOptions.paceAtRealTime || Self.isLocalFile(channel.streamURL)
        let session = try ChannelSession(channel: channel, configuration: options.engine, delayMs: delayMs,
                                         client: clientOptions, clock: clock)
        announce(channel, at: heardAt ?? time)
        session.start(now: time)
        return session
    }

    /// Fast: the selected channel only, read on this thread as fast as it can be.
    private func runFast() throws -> EngineStatus {
        let clock = ManualClock()
        start = clock.now()
        let channel = options.lineup.selected
        let session = try ChannelSession(channel: channel, configuration: options.engine, delayMs: options.delayMs,
                                         client: nil, clock: clock)
        let engine = session.engine
        announce(channel, at: start)
        session.start(now: start)
        let input = try FFmpegInput(url: channel.streamURL, options: options.client.input, gate: InterruptGate())
        if let line = session.apply(.opened(input.parameters, at: start)) { say(line, at: start) }
        var period = [Float](repeating: 0, count: periodFrames * AudioFormat.channelCount)
        var rendered: Int64 = 0
        var ended = false
        let limit = options.seconds > 0 ? Int64(options.seconds * Double(AudioFormat.sampleRate)) : Int64.max
        while rendered < limit {
            if !ended {
                do {
                    if var packet = try input.readPacket() {
                        // Virtual time: arrival is when the packet's audio is live, exactly.
                        packet.receivedAheadFrames = 0
                        // The packet's audio is live when its last frame is.
                        let arrival = start.advanced(byFrames: packet.connectionTimestamp + Int64(packet.durationFrames))
                        while start.advanced(byFrames: rendered) < arrival, rendered < limit {
                            renderPeriod(engine, into: &period, at: start.advanced(byFrames: rendered))
                            rendered += Int64(periodFrames)
                        }
                        clock.set(arrival)
                        session.apply(.packet(packet, at: arrival))
                        while let carried = input.takeTitle() {
                            session.apply(.title(carried.title, connectionTimestamp: carried.connectionTimestamp, at: arrival))
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
            if options.seconds <= 0, engine.status(at: now).bufferedAheadMs == 0 { break }
            renderPeriod(engine, into: &period, at: now)
            rendered += Int64(periodFrames)
        }
        return engine.status(at: start.advanced(byFrames: rendered))
    }

    private func announce(_ channel: Channel, at time: Instant) {
        log(options.json ? NotificationLog.jsonLine(["type": "channel", "name": channel.name, "url": channel.streamURL, "t": seconds(at: time)])
                         : String(printf: "%8.2f  ", time.seconds - start.seconds) + "channel: \(channel.name) (\(channel.streamURL))")
    }

    private func renderPeriod(_ engine: PlaybackEngine, into period: inout [Float], at time: Instant) {
        period.withUnsafeMutableBufferPointer { engine.render(into: $0, now: time, outputDelayFrames: Self.fastOutputDelayFrames) }
        period.withUnsafeBufferPointer { writer?.write($0) }
        printNotifications(engine, at: time)
    }

    private func printNotifications(_ engine: PlaybackEngine, at time: Instant) {
        for notification in engine.drainNotifications() {
            let seconds = time.seconds - start.seconds
            log(options.json ? NotificationLog.json(notification, atSeconds: seconds)
                             : String(printf: "%8.2f  ", seconds) + NotificationLog.text(notification))
        }
    }

    /// A line for people; in JSON, `{"type": "info", "text": …}`.
    private func say(_ text: String, at time: Instant) {
        log(options.json ? NotificationLog.jsonLine(["type": "info", "text": text, "t": seconds(at: time)])
                         : String(printf: "%8.2f  ", time.seconds - start.seconds) + text)
    }

    /// Seconds since the start, to the millisecond, for JSON lines.
    private func seconds(at time: Instant) -> Double { ((time.seconds - start.seconds) * 1000).rounded() / 1000 }

    static func isLocalFile(_ url: String) -> Bool { !url.contains("://") || url.hasPrefix("file:") }
}
