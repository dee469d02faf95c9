import DelayboxALSA
import DelayboxAudio
import DelayboxEngine
import DelayboxPlatform
import FoundationEssentials
import Synchronization

/// A line-in channel's input (`alsa:NAME`, e.g. the codec's ADC): one thread reads the
/// capture device a period at a time and posts each period as a packet of 16-bit
/// stereo, stamped with when its first frame was at the input, to the same inbox shape
/// as the stream client — so an analogue radio is delayed exactly like a stream. A
/// device that fails or is missing is reopened with back-off while the engine plays on.
final class CaptureClient: ChannelFeed {
    private let request: ALSAOutput.Request
    private let clock: any MonotonicClock
    private let sleeper: any Sleeper
    private let backoff: ReconnectBackoff
    private let inbox = Mutex<[StreamClient.Message]>([])
    private let worker = WorkerThread(name: "delaybox-capture")

    /// - Parameter device: the ALSA capture PCM name.
    init(
        device: String, clock: any MonotonicClock, sleeper: any Sleeper, backoff: ReconnectBackoff = ReconnectBackoff()
    ) {
        // 20 ms periods; a buffer of 200 ms rides out a late capture thread without loss.
        request = ALSAOutput.Request(device: device, sampleFormat: .s16, periodFrames: 960, periods: 10)
        self.clock = clock
        self.sleeper = sleeper
        self.backoff = backoff
    }

    func start() { worker.start { [self] in run() } }

    /// Ends the thread (a read returns within a period). A second call returns at once.
    func stop() { worker.stop() }

    func drain() -> [StreamClient.Message] {
        inbox.withLock { messages in
            defer { messages.removeAll(keepingCapacity: true) }
            return messages
        }
    }

    private func post(_ message: StreamClient.Message) { inbox.withLock { $0.append(message) } }

    private func run() {
        var backoff = self.backoff
        var random = SystemRandomNumberGenerator()
        while !worker.isStopRequested {
            let reason = capture(resetting: &backoff)
            if worker.isStopRequested { return }
            post(.lost(reason, at: clock.now()))
            worker.wait(for: backoff.nextDelay(using: &random))
        }
    }

    /// One opening of the device, until it fails or a stop; returns why it ended.
    private func capture(resetting backoff: inout ReconnectBackoff) -> String {
        let input: ALSAInput
        do throws(OutputError) {
            input = try ALSAInput(request, clock: clock, sleeper: sleeper)
        } catch {
            return "line-in: \(error)"
        }
        defer { input.close() }
        post(.started("line-in \(input.name): \(input.format)", at: clock.now()))
        var samples = [Int16](repeating: 0, count: input.periodFrames * 2)
        var position: Int64 = 0
        while !worker.isStopRequested {
            // The typed throw is caught inside the closure: Swift 6.0's
            // withUnsafeMutableBufferPointer rethrows it as `any Error`.
            let failure = samples.withUnsafeMutableBufferPointer { buffer -> OutputError? in
                do throws(OutputError) {
                    try input.read(into: buffer.baseAddress!)
                    return nil
                } catch { return error }
            }
            if let failure { return "line-in: \(failure)" }
            backoff.reset()
            // The period's first frame was at the input a period and the device's backlog ago.
            let heard = clock.now().advanced(byFrames: -Int64(input.delayFrames() + input.periodFrames))
            let payload = samples.withUnsafeBytes { Array($0) }
            post(
                .packet(
                    StreamPacket(payload: payload, connectionTimestamp: position, durationFrames: input.periodFrames),
                    at: heard))
            position += Int64(input.periodFrames)
        }
        return "stopped"
    }
}
