import DelayboxEngine
import DelayboxFFmpeg
import DelayboxPlatform
import FoundationEssentials
import Synchronization

/// The stream client: one thread that connects to a channel URL through FFmpeg, reads
/// packets and reconnects with backoff, posting what happens to an inbox that the
/// playout thread drains before each render (the engine has one owner).
///
/// Every failure — EOF, HTTP errors, refused connections, DNS failures, stalls — is a
/// lost connection followed by a reconnect; only a stop ends the thread.
public final class StreamClient: ChannelFeed {
    /// What the client saw, with the local time it happened.
    public enum Message: Sendable {
        case opened(CodecParameters, at: Instant)
        /// An input that needs no decoder set-up (the line-in's 16-bit stereo) began.
        case started(String, at: Instant)
        case packet(StreamPacket, at: Instant)
        /// A new stream title (ICY or Ogg comments), carried where the packet before it ends.
        case title(String, connectionTimestamp: Int64, at: Instant)
        case lost(String, at: Instant)
        /// A station link was read: the stream it led to, and how.
        case resolved(String, note: String, at: Instant)
    }

    public struct Options: Sendable {
        public var input = FFmpegInput.Options()
        public var backoff = ReconnectBackoff()
        /// Read a local file at real-time pace, as if it were live.
        public var paceAtRealTime = false
        /// Pauses between batches of reads on a live byte stream (`ReadBatching`).
        public var batching = ReadBatching()
        public init() {}
    }

    private let url: String
    private let options: Options
    private let clock: any MonotonicClock
    private let gate = InterruptGate()
    private let inbox = Mutex<[Message]>([])
    /// Its waits (backoff, pacing) end at once on stop.
    private let worker = WorkerThread(name: "delaybox-stream")

    public init(url: String, options: Options, clock: any MonotonicClock) {
        self.url = url
        self.options = options
        self.clock = clock
    }

    /// Starts the client's thread.
    public func start() { worker.start { [self] in run() } }

    /// Ends the thread: a blocking network call returns within FFmpeg's interrupt polling
    /// interval, a backoff wait at once. Blocks until the thread is done; a second call
    /// returns at once (the semaphore is left signalled for it).
    public func stop() { worker.stop(interrupt: gate.requestStop) }

    /// Takes what happened since the last call, in order.
    public func drain() -> [Message] {
        inbox.withLock { messages in
            defer { messages.removeAll(keepingCapacity: true) }
            return messages
        }
    }

    private func post(_ message: Message) { inbox.withLock { $0.append(message) } }

    private func run() {
        var backoff = options.backoff
        var random = SystemRandomNumberGenerator()
        while !gate.isStopRequested {
            let (reason, delivered, recording) = session()
            if let delivered { backoff.connectionEnded(after: delivered) }
            if recording { backoff.recordingEnded() }
            if gate.isStopRequested { return }
            post(.lost(reason, at: clock.now()))
            worker.wait(for: backoff.nextDelay(using: &random))
        }
    }

    /// One connection, from opening to its end: why it ended, how long it delivered audio
    /// (nil: none came), and whether it was a recording read to its end.
    private func session() -> (reason: String, delivered: TimeAmount?, recording: Bool) {
        let input: FFmpegInput
        do throws(ChannelInput.Failure) {
            let found = try ChannelInput.open(url, options: options.input, gate: gate)
            input = found.input
            if let note = found.note { post(.resolved(found.streamURL, note: note, at: clock.now())) }
        } catch {
            return (error.description, nil, false)
        }
        let opened = clock.now()
        post(.opened(input.parameters, at: opened))
        // Each packet is posted when the next one has been read: a connection cut in the
        // middle of a frame leaves a truncated last packet (FFmpeg's MP3 parser hands it out
        // at the end), which would never match the whole frame a reconnect's burst resends,
        // and so would defeat the splice. The last packet of a cut connection is dropped; a
        // splice brings it back whole. A local file's end is clean and keeps it.
        var held: [Message] = []
        /// The audio read so far (frames, at the connection's timestamps).
        var audioFrames: Int64 = 0
        var delivered: TimeAmount? = nil
        var batching = options.batching
        if options.paceAtRealTime || !input.readsOneByteStream { batching.pause = .zero }
        do {
            while var packet = try input.readPacket() {
                audioFrames = max(audioFrames, packet.connectionTimestamp)
                if options.paceAtRealTime {
                    pace(until: opened.advanced(byFrames: packet.connectionTimestamp))
                    // A file read ahead of its pace: what is read beyond was not live yet.
                    packet.receivedAheadFrames = 0
                }
                let now = clock.now()
                packet.readBeforeBatching = batching.isBeforeBatching(now: now, connected: opened)
                delivered = now - opened
                held.forEach(post)
                held = [.packet(packet, at: now)]
                while let carried = input.takeTitle() {
                    held.append(.title(carried.title, connectionTimestamp: carried.connectionTimestamp, at: now))
                }
                if gate.isStopRequested { return ("stopped", delivered, false) }
                let pause = batching.pause(
                    now: now, connected: opened, bufferedBytes: input.bufferedBytes,
                    packetBytes: input.largestPacketBytes)
                if pause > 0 { worker.wait(for: TimeAmount(nanoseconds: pause)) }
            }
            if options.paceAtRealTime { held.forEach(post) }
            let wall = clock.now() - opened
            return (
                Self.ended(audioFrames: audioFrames, after: wall), delivered,
                Self.isRecording(audioFrames: audioFrames, after: wall)
            )
        } catch {
            return (
                gate.didStall ? "no data for \(options.input.stallTimeout.milliseconds) ms" : "\(error)", delivered,
                false
            )
        }
    }

    /// Why a connection that reached the end of its stream ended: a live stream's server
    /// closed it — or, when far more audio came than time passed (beyond a connect burst),
    /// the link is a recording read at network speed, not a live stream.
    static func ended(audioFrames: Int64, after wall: TimeAmount) -> String {
        guard isRecording(audioFrames: audioFrames, after: wall) else { return "end of stream" }
        return "end of stream: the link is a recording, not a live stream (\(audio(audioFrames).wholeSeconds) s of "
            + "audio came in \(max(1, wall.secondsRoundedUp)) s); it is fetched again only every half minute"
    }

    /// Whether far more audio came than time passed, beyond a connect burst: a recording.
    static func isRecording(audioFrames: Int64, after wall: TimeAmount) -> Bool {
        audio(audioFrames) > 2 * wall + .seconds(10)
    }

    /// The audio of `frames` (a stranger's timestamps: bounded to 254 days before any arithmetic).
    private static func audio(_ frames: Int64) -> TimeAmount {
        TimeAmount.milliseconds(AudioFormat.milliseconds(frames: min(max(0, frames), 1 << 40)))
    }

    private func pace(until instant: Instant) {
        let wait = instant - clock.now()
        if wait > .zero { worker.wait(for: wait) }
    }
}
