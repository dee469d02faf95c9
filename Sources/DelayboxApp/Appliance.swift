import DelayboxEngine
import DelayboxSimulation
import Foundation

/// The composition root: wires a channel, the engine and an output together and owns
/// the thread that paces them.
///
/// Until the stream client and ALSA output land, the channel is the built-in test-tone
/// channel (the simulated Icecast-like source, delivered in real time) and the output is
/// a WAV file written at real-time pace.
public final class Appliance {
    public struct Options: Sendable {
        public var delayMs: Int64 = 5_000
        public var outputPath = "delaybox-out.wav"
        /// Stop after this long (0: run until interrupted).
        public var seconds: Double = 0
        public var engine = EngineConfiguration()
        public init() {}
    }

    private let options: Options
    private let log: (String) -> Void

    public init(options: Options, log: @escaping (String) -> Void) {
        self.options = options
        self.log = log
    }

    public func run() throws {
        var configuration = options.engine
        configuration.initialDelayMs = options.delayMs
        let engine = try PlaybackEngine(configuration: configuration, decoderFactory: { ToneDecoder() })
        let writer = try WavFileWriter(path: options.outputPath)
        let clock = SystemClock()
        var channel = SimulatedNetwork(packetFrames: 1_152, packetBytes: 384, latencyMs: 20, jitterMs: 5, burstMs: 4_000,
                                       connectAtMs: 0, outages: [], events: [], seed: 7)
        let periodFrames = 960, queuedFrames = 3 * periodFrames
        var period = [Float](repeating: 0, count: periodFrames * AudioFormat.channelCount)
        var pacer = PeriodPacer(clock: clock, periodFrames: periodFrames, seconds: options.seconds)
        let start = pacer.start
        engine.start(now: start)
        log("delaybox \(DelayboxVersion.string): test-tone channel, delay \(options.delayMs) ms, writing \(options.outputPath)")
        var lastStatus = start
        while let due = pacer.nextPeriod() {
            while channel.nextTime() <= due.advanced(byNanoseconds: -start.nanoseconds) {
                let (time, delivery) = channel.next()
                channel.apply(delivery, at: time.advanced(byNanoseconds: start.nanoseconds), to: engine)
            }
            period.withUnsafeMutableBufferPointer { engine.render(into: $0, now: due, outputDelayFrames: queuedFrames) }
            period.withUnsafeBufferPointer { writer.write($0) }
            for notification in engine.drainNotifications() { log(NotificationLog.text(notification)) }
            if due.milliseconds(since: lastStatus) >= 5_000 {
                lastStatus = due
                try writer.flush()
                let status = engine.status(at: due)
                log("status: \(status.state.rawValue), delay \(status.delayMs) ms, available \(status.availableDelayMs) ms")
            }
        }
        try writer.close()
    }
}
