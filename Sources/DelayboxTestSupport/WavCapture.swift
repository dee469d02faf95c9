import Foundation

/// The left channel of a 16-bit stereo 48 kHz WAV file that `delaybox` wrote, for
/// checking what was heard when.
public struct WavCapture {
    public static let sampleRate = 48_000
    public let left: [Int16]

    public init(path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        left = stride(from: 44, to: data.count - 3, by: 4).map {
            Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)
        }
    }

    /// Both channels of a 16-bit stereo WAV file, interleaved (after its 44-byte header).
    public static func stereoSamples(path: String) throws -> [Int16] {
        try Data(contentsOf: URL(fileURLWithPath: path)).dropFirst(44).withUnsafeBytes {
            Array($0.bindMemory(to: Int16.self))
        }
    }

    public var seconds: Double { Double(left.count) / Double(Self.sampleRate) }

    /// Seconds of 16-bit stereo 48 kHz audio a WAV file being written holds so far (0 before
    /// it exists): how far an output that renders at real-time pace has played, to wait on.
    public static func secondsWritten(path: String) -> Double {
        guard let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return 0 }
        return Double(max(size - 44, 0) / 4) / Double(sampleRate)
    }

    /// Samples from `start` to `end` seconds (clamped to the file).
    public func window(from start: Double, to end: Double) -> ArraySlice<Int16> {
        func index(_ seconds: Double) -> Int { min(max(Int(seconds * Double(Self.sampleRate)), 0), left.count) }
        let lower = index(start), upper = max(index(start), index(end))
        return left[lower..<upper]
    }

    /// Sign changes per second between `start` and `end`: twice the frequency of a tone.
    public func crossingsPerSecond(from start: Double, to end: Double) -> Double {
        let samples = window(from: start, to: end)
        guard samples.count > 1 else { return 0 }
        let crossings = zip(samples, samples.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) * Double(Self.sampleRate) / Double(samples.count)
    }

    /// Samples between successive sign changes from `start` to `end`: half the period of
    /// the tone heard there (54.5 for 440 Hz, 27.3 for 880 Hz); silence has none.
    public func halfPeriods(from start: Double, to end: Double) -> [Int] {
        let samples = window(from: start, to: end)
        var last: Int?
        var intervals: [Int] = []
        for index in samples.indices.dropFirst() where (samples[index - 1] < 0) != (samples[index] < 0) {
            if let last { intervals.append(index - last) }
            last = index
        }
        return intervals
    }

    /// The largest absolute sample between `start` and `end`.
    public func peak(from start: Double, to end: Double) -> Int {
        window(from: start, to: end).map { abs(Int($0)) }.max() ?? 0
    }
}
