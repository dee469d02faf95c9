import DelayboxAudio
import DelayboxEngine
import FoundationEssentials

/// A WAV file (`wav:PATH`), paced at real time: what the jack would have played.
public struct WavOutputKind: OutputKind {
    public static let scheme = "wav"
    public let path: String
    public var argument: String? { path }

    public init(path: String) { self.path = path }

    public init?(argument: String?) {
        guard let argument, !argument.isEmpty else { return nil }
        path = argument
    }

    /// Creates the file's folder and the file; opened again after a loss, it appends to
    /// it, so nothing already written is lost.
    public func open(
        _ request: OutputDevice.Request, reopening: Bool, clock: any MonotonicClock,
        sleeper: any Sleeper
    ) throws(OutputError) -> any OutputDriver {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return try WavFileOutput(
            path: path, appending: reopening, periodFrames: request.periodFrames, periods: request.periods,
            clock: clock, sleeper: sleeper)
    }

    public func fastWriter() throws -> (any FrameFile)? { try WavFileWriter(path: path) }
}
