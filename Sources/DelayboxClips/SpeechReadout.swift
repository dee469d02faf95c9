import DelayboxMixer
import DelayboxPlatform
import DelayboxUnits
import FoundationEssentials
import Synchronization

/// Says the delay aloud after the knob rests, through espeak-ng when it is installed
/// (`delayInTones` otherwise). The synthesiser runs as a process off the playout thread;
/// the clip is taken when ready.
public final class SpeechReadout: Sendable {
    /// The synthesiser, nil when none is installed.
    let executable: URL?
    private let ready = Mutex<[AudioClip]>([])

    public init(searchPath: String = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") {
        executable = searchPath.split(separator: ":").map {
            URL(fileURLWithPath: String($0)).appendingPathComponent("espeak-ng")
        }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// How the delay is said: "12.5 seconds", "2 minutes 5 seconds".
    static func text(delay: TimeAmount) -> String {
        let tenths = (delay.milliseconds + 50) / 100
        let minutes = tenths / 600
        let seconds = Double(tenths % 600) / 10
        let secondsText = seconds == seconds.rounded() ? "\(Int(seconds))" : String(printf: "%.1f", seconds)
        if minutes == 0 { return "\(secondsText) seconds" }
        return "\(minutes) minute\(minutes == 1 ? "" : "s")" + (seconds == 0 ? "" : " \(secondsText) seconds")
    }

    /// Starts saying the delay; false when no synthesiser is installed.
    public func say(delay: TimeAmount) -> Bool { say(Self.text(delay: delay)) }

    /// Starts saying `text` (words the box made, never a stranger's); false when no
    /// synthesiser is installed.
    public func say(_ text: String) -> Bool {
        guard let executable else { return false }
        PlatformThread.start(name: "delaybox-speech") { [self] in
            guard let wav = ChildProcess.output(of: executable.path, ["--stdout", "-s", "175", text]) else { return }
            if let clip = Self.clip(fromWav: wav) { ready.withLock { $0.append(clip) } }
        }
        return true
    }

    /// Spoken clips ready to play.
    public func take() -> [AudioClip] {
        ready.withLock { clips in
            defer { clips.removeAll() }
            return clips
        }
    }

    /// 16-bit PCM WAV (as espeak-ng writes it to a pipe: the sizes are placeholders, the
    /// data runs to the end) converted to a clip; nil if it is not that.
    static func clip(fromWav bytes: [UInt8]) -> AudioClip? {
        func word(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func long(_ at: Int) -> Int { word(at) | word(at + 2) << 16 }
        guard bytes.count > 44, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            return nil
        }
        var offset = 12
        var format: SourceFormat?
        while offset + 8 <= bytes.count {
            let size = long(offset + 4)
            if bytes[offset..<offset + 4].elementsEqual("fmt ".utf8), offset + 24 <= bytes.count {
                let channels = word(offset + 10), rate = long(offset + 12), bits = word(offset + 22)
                guard word(offset + 8) == 1, bits == 16, channels == 1 || channels == 2, rate > 0 else { return nil }
                format = SourceFormat(channels: channels, sampleRate: rate)
            } else if bytes[offset..<offset + 4].elementsEqual("data".utf8), let format {
                let start = offset + 8
                let end = min(bytes.count, start + size) & ~1
                let samples = stride(from: start, to: end, by: 2).map {
                    Float(Int16(bitPattern: UInt16(word($0)))) / 32_768
                }
                return samples.isEmpty ? nil : AudioClip(converting: samples, format: format)
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }
}
