import CALSA
import DelayboxAudio
import DelayboxEngine

/// Capture through ALSA (libasound): the codec's line-in (`hw:CARD=…`), `default`, or
/// any plugin, read a period at a time as 16-bit stereo for a line-in channel. Overrun
/// (EPIPE) and suspend (ESTRPIPE) are recovered in place; anything else is a lost
/// device, for the caller to reopen.
///
/// ALSA's `null` and `file` plugins have no clock; for them this driver paces itself
/// (`PacedCapture`), so a `file` plugin's `infile` plays the part of the line-in in tests.
public final class ALSAInput {
    public var name: String { stream.name }
    public var format: OutputFormat { stream.format }
    public var periodFrames: Int { stream.periodFrames }
    public var bufferFrames: Int { stream.bufferFrames }
    /// Times the device overran (the reader was late) and captured audio was lost.
    public var overruns: Int { stream.xruns + pacing.overruns }
    /// Whether this driver paces itself (a plugin without a clock).
    public var isPaced: Bool { stream.isPaced }
    private let stream: ALSAStream
    private let converter: CaptureConverter
    /// One period in the device's format.
    private let deviceBytes: UnsafeMutableRawPointer
    private var pacing: PacedCapture
    private let clock: any MonotonicClock
    private let sleeper: any Sleeper

    /// Opens and configures the device for capture.
    public init(_ request: ALSAOutput.Request, clock: any MonotonicClock, sleeper: any Sleeper) throws(OutputError) {
        stream = try ALSAStream(request, direction: SND_PCM_STREAM_CAPTURE, clock: clock, sleeper: sleeper)
        self.clock = clock
        self.sleeper = sleeper
        pacing = PacedCapture(bufferFrames: stream.bufferFrames)
        converter = CaptureConverter(format: stream.format)
        let bytes = stream.periodFrames * stream.format.bytesPerFrame
        deviceBytes = .allocate(byteCount: bytes, alignment: 16)
        // ALSA's null plugin "captures" without writing: silence, not whatever memory held.
        deviceBytes.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
    }

    deinit {
        close()
        deviceBytes.deallocate()
    }

    /// Waits for the next period and converts it into `destination` (`periodFrames * 2`
    /// samples, 16-bit stereo).
    public func read(into destination: UnsafeMutablePointer<Int16>) throws(OutputError) {
        guard stream.isOpen else { throw .closed }
        if isPaced {
            let (due, lost) = pacing.prepareRead(frames: periodFrames, now: clock.now())
            var left = lost
            while left > 0 {
                let count = Int(min(left, Int64(periodFrames)))
                try stream.transfer(deviceBytes, frames: count)
                left -= Int64(count)
            }
            sleeper.sleep(until: due)
        }
        try stream.transfer(deviceBytes, frames: periodFrames)
        if isPaced { pacing.didRead(frames: periodFrames) }
        converter.convert(deviceBytes, frames: periodFrames, into: destination)
    }

    /// Frames captured and not yet read: how long ago the next period began at the input.
    public func delayFrames() -> Int {
        isPaced ? pacing.delayFrames(at: clock.now()) : stream.deviceDelayFrames()
    }

    public func close() { stream.close() }
}
