import DelayboxALSA
import DelayboxAudio
import DelayboxEngine
import FoundationEssentials
import Synchronization

/// Where audio goes, as the board config or `--output` names it, and how to open it
/// (again, after a loss).
public enum OutputDevice: Sendable, Equatable, CustomStringConvertible {
    /// An ALSA PCM: `hw:CARD=…,DEV=0`, `default`, a plugin name.
    case alsa(String)
    /// A WAV file, paced at real time.
    case wav(String)
    /// Nothing, paced at real time.
    case null

    /// Parses `alsa:NAME`, `wav:PATH`, `null`, or a bare ALSA name.
    public init?(_ text: String) {
        if text == "null" { self = .null }
        else if text.hasPrefix("wav:"), text.count > 4 { self = .wav(String(text.dropFirst(4))) }
        else if text.hasPrefix("alsa:"), text.count > 5 { self = .alsa(String(text.dropFirst(5))) }
        else if !text.isEmpty, !text.contains(" ") { self = .alsa(text) }
        else { return nil }
    }

    public var description: String {
        switch self {
        case .alsa(let name): "alsa:" + name
        case .wav(let path): "wav:" + path
        case .null: "null"
        }
    }

    /// Period and buffer to ask for, and the sample format a codec prefers.
    public struct Request: Sendable {
        public var sampleFormat: SampleFormat = .s16
        public var periodFrames = 960
        public var periods = 4
        public init() {}
    }

    /// A factory that opens this device; a WAV file is created by the first open and
    /// appended to by later ones (after a loss), so nothing already written is lost.
    func opener(_ request: Request, clock: any MonotonicClock, sleeper: any Sleeper) -> AudioPump.DriverFactory {
        let openedBefore = Atomic<Bool>(false)
        return { () throws(OutputError) -> any OutputDriver in
            switch self {
            case .null:
                return NullOutput(periodFrames: request.periodFrames, periods: request.periods, clock: clock, sleeper: sleeper)
            case .wav(let path):
                let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let appending = openedBefore.exchange(true, ordering: .relaxed)
                return try WavFileOutput(path: path, appending: appending, periodFrames: request.periodFrames,
                                         periods: request.periods, clock: clock, sleeper: sleeper)
            case .alsa(let name):
                let alsa = ALSAOutput.Request(device: name, sampleFormat: request.sampleFormat, periodFrames: request.periodFrames,
                                              periods: request.periods)
                return try ALSAOutput(alsa, clock: clock, sleeper: sleeper)
            }
        }
    }
}
