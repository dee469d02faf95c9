import Foundation

/// How strongly a tone sounds in a capture's left channel (interleaved 16-bit stereo at
/// 48 kHz, as `delaybox` writes WAV files and the virtual board's loopback records).
public enum Goertzel {
    /// The windows `windowPowers` and `longestRun` look at: 50 ms (2400 frames).
    public static let windowFrames = 2_400

    /// Power of `hertz` in `frames` frames from frame `start`, relative to full scale
    /// (Goertzel's algorithm: one DFT bin).
    public static func power(_ samples: [Int16], from start: Int, frames: Int, hertz: Double) -> Double {
        let coefficient = 2 * cos(2 * Double.pi * hertz / 48_000)
        var (previous, beforePrevious) = (0.0, 0.0)
        for frame in start..<start + frames {
            let value = Double(samples[2 * frame]) / 32_768 + coefficient * previous - beforePrevious
            (beforePrevious, previous) = (previous, value)
        }
        return (previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious)
            / Double(frames * frames)
    }

    /// The power of `hertz` in each whole 50 ms window, in order.
    public static func windowPowers(_ samples: [Int16], hertz: Double) -> [Double] {
        (0..<samples.count / 2 / windowFrames).map {
            power(samples, from: $0 * windowFrames, frames: windowFrames, hertz: hertz)
        }
    }

    /// Where `hertz` is missing (power at most `threshold`) once it has first sounded,
    /// in seconds from the capture's start: each gap's start and its end, nil for a gap
    /// the capture ends in. Presence shorter than `ignoring` windows inside a gap (a ramp's
    /// edge straddling a window) does not end it.
    public static func gaps(
        _ samples: [Int16], hertz: Double, threshold: Double = 1e-3,
        ignoring: Int = 2
    ) -> [(start: Double, end: Double?)] {
        let loud = windowPowers(samples, hertz: hertz).map { $0 > threshold }
        let seconds = Double(windowFrames) / 48_000
        guard var index = loud.firstIndex(of: true) else { return [] }
        var result: [(start: Double, end: Double?)] = []
        while let start = loud[index...].firstIndex(of: false) {
            var end = start
            while true {
                guard let back = loud[end...].firstIndex(of: true) else {
                    result.append((Double(start) * seconds, nil))
                    return result
                }
                let presence = loud[back...].prefix { $0 }.count
                end = back + presence
                if presence > ignoring || end == loud.count {
                    result.append((Double(start) * seconds, Double(back) * seconds))
                    break
                }
            }
            index = end
            guard index < loud.count else { break }
        }
        return result
    }

    /// Start and length (s) of the longest run of 50 ms windows where the power of
    /// `hertz` is above `threshold`.
    public static func longestRun(_ samples: [Int16], hertz: Double, threshold: Double) -> (
        start: Double, length: Double
    )? {
        let loud = windowPowers(samples, hertz: hertz).map { $0 > threshold }
        var best: (Int, Int)?
        var index = 0
        while index < loud.count {
            guard loud[index] else { index += 1; continue }
            let start = index
            while index < loud.count, loud[index] { index += 1 }
            if index - start > (best?.1 ?? 0) { best = (start, index - start) }
        }
        let seconds = Double(windowFrames) / 48_000
        return best.map { (Double($0.0) * seconds, Double($0.1) * seconds) }
    }
}
