import DelayboxAudio
import DelayboxEngine

/// One kind of output: how the board config and `--output` name it (`alsa:NAME`,
/// `wav:PATH`, `null`) and what it can do. A new kind is one file conforming to this and
/// one line in `OutputDevice.kinds`.
public protocol OutputKind: Sendable {
    /// The name before the colon (`alsa`, `wav`), or the whole name of a kind that takes no
    /// argument (`null`).
    static var scheme: String { get }
    /// The output named by what follows `scheme:`, or by `scheme` alone (`argument` nil);
    /// nil when that names none.
    init?(argument: String?)
    /// What follows `scheme:` (nil for `scheme` alone).
    var argument: String? { get }
    /// A device that paces itself (a sound card): it gets 20 ms periods and the board's mixer
    /// control, and cannot be played faster than real time. (Every output's audio thread asks
    /// for real-time priority: `OutputPath.audioPriority`.)
    /// The others are paced by the clock and get 100 ms periods: each wake-up costs CPU
    /// and they have no latency to keep low.
    var pacesItself: Bool { get }
    /// Opens the output; `reopening` after a loss (a file then keeps what it holds).
    func open(
        _ request: OutputDevice.Request, reopening: Bool, clock: any MonotonicClock,
        sleeper: any Sleeper
    ) throws(OutputError) -> any OutputDriver
    /// The device's own volume control named `control`, if the kind has one.
    func mixer(control: String) throws(OutputError) -> (any HardwareVolume)?
    /// Where `play --fast` writes, as fast as it renders (nil: nowhere).
    func fastWriter() throws -> (any FrameFile)?
}

extension OutputKind {
    public var pacesItself: Bool { false }
    public func mixer(control: String) throws(OutputError) -> (any HardwareVolume)? { nil }
    public func fastWriter() throws -> (any FrameFile)? { nil }
}

/// A file that takes rendered frames unpaced (`play --fast`).
public protocol FrameFile: AnyObject {
    /// Appends interleaved stereo frames in the internal format.
    func write(_ samples: UnsafeBufferPointer<Float>)
    /// Finishes the file; a failure is the system's reason.
    func close() throws
}
