import DelayboxEngine

/// An audio output: where rendered frames become sound (ALSA on a board; a WAV file or
/// nothing on a host). Drivers are thin; all timing, delay and drift logic lives once,
/// in the engine, which only needs to know how far ahead of the jack it writes.
///
/// The contract (checked for every driver by `OutputDriverConformance` in
/// DelayboxTestSupport):
/// - A driver is open when constructed, with the `format`, `periodFrames` and
///   `bufferFrames` the device accepted; it converts from the engine's 48 kHz stereo
///   Float as it writes. Only the audio thread calls it after construction.
/// - `write` takes exactly `periodFrames` frames and returns once the device has taken
///   them: a hardware device blocks until it has room; a paced driver (WAV, null, ALSA
///   plugins that do not run on a clock) waits for its own clock, so it too consumes in
///   real time. The first write starts the device.
/// - `delayFrames()`: frames from the next frame written until it is audible, right
///   now (what is queued plus the device's own latency); never negative, at most
///   `bufferFrames` plus that latency.
/// - Underrun (the writer was late and the device ran dry): the driver recovers by
///   itself, counts it in `underruns`, and the gap is heard as silence; the next write
///   goes on. A device that is gone (unplugged, removed, unrecoverable) makes `write`
///   throw `OutputError.deviceLost`; the owner closes the driver and opens a new one.
/// - `close()` lets what is queued play out and releases the device; it is idempotent,
///   and a write after it throws `OutputError.closed`.
/// Optional capabilities are separate protocols (`HardwareVolume`).
public protocol OutputDriver: AnyObject {
    /// A short name for logs: `alsa:hw:CARD=…`, `wav:PATH`, `null`.
    var name: String { get }
    var format: OutputFormat { get }
    /// Frames each `write` takes.
    var periodFrames: Int { get }
    /// Frames the device queues at most.
    var bufferFrames: Int { get }
    /// Underruns recovered so far.
    var underruns: Int { get }
    /// Writes exactly `periodFrames` interleaved stereo Float frames.
    func write(_ frames: UnsafePointer<Float>) throws(OutputError)
    /// Frames from the next written frame until it is audible.
    func delayFrames() -> Int
    /// When the first frame written since the open was audible, where the device itself
    /// fixes it (a paced device starts playing at its first write); nil when it can only
    /// be measured from `delayFrames` (a sound card).
    var firstFrameAudible: Instant? { get }
    func close()
}

/// Why an output cannot go on.
public enum OutputError: Error, Equatable, CustomStringConvertible {
    /// The device cannot be opened (absent, busy, no permission) or was lost while
    /// playing; `reason` is the system's word for it.
    case deviceLost(reason: String)
    /// The device does not take what the engine renders (e.g. no 48 kHz on a `hw:` device).
    case unsupported(reason: String)
    case closed

    public var description: String {
        switch self {
        case .deviceLost(let reason): reason
        case .unsupported(let reason): "unsupported: \(reason)"
        case .closed: "the output is closed"
        }
    }
}

/// A codec's own volume control (ALSA's mixer), when the board has one. Used from the
/// playout thread, never the audio thread (mixer calls can be slow).
///
/// Implementation requirements: `setVolume` sets the control as close to `decibels` as
/// its steps allow (never louder than 0 dB) and returns what it set; `setMuted` uses the
/// control's switch when it has one and reports whether it did.
public protocol HardwareVolume: AnyObject {
    /// The control's name, for logs.
    var controlName: String { get }
    /// The control's range in dB.
    var decibelRange: ClosedRange<Double> { get }
    /// Sets the attenuation; returns the dB actually set.
    func setVolume(decibels: Double) throws(OutputError) -> Double
    /// Mutes or unmutes with the control's switch; false when it has none.
    func setMuted(_ muted: Bool) throws(OutputError) -> Bool
}
