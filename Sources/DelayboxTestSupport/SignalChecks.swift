import DelayboxSimulation

/// Measurements on rendered audio that tests assert on.
public enum SignalChecks {
    /// The largest absolute difference between neighbouring samples: a click shows up as
    /// a step far above what the programme itself has.
    public static func largestStep(_ samples: [Float]) -> Float {
        zip(samples, samples.dropFirst()).reduce(0) { max($0, abs($1.1 - $1.0)) }
    }

    /// The largest step of the test tone itself (1 kHz sine, amplitude 0.5).
    public static var toneStep: Float {
        largestStep((0..<96).map { ToneCodec.sample(frame: Int64($0)).left })
    }

    /// The stream frame (mod the code period) an output frame carries, if it is exact.
    public static func code(_ samples: [Float], frame: Int) -> Int64? {
        ToneCodec.code(right: samples[2 * frame + 1])
    }

    /// Every output frame that carries an exact, unscaled code (its next frame carries the
    /// next code), with the stream frame it encodes, unwrapped so that codes only grow
    /// across the code period (the first one is taken as is).
    public static func exactFrames(_ samples: [Float]) -> [(frame: Int, streamFrame: Int64)] {
        var result: [(Int, Int64)] = []
        let period = ToneCodec.codePeriod
        var lastUnwrapped: Int64?
        for frame in 0..<(samples.count / 2 - 1) {
            guard let code = code(samples, frame: frame), let next = self.code(samples, frame: frame + 1),
                (next - code) & (period - 1) == 1
            else { continue }
            var unwrapped = code
            if let last = lastUnwrapped {
                let base = last - period / 2
                unwrapped = base + ((code - base) % period + period) % period
            }
            lastUnwrapped = unwrapped
            result.append((frame, unwrapped))
        }
        return result
    }

    /// The first frame at which two recordings differ, or nil if they are identical
    /// (compare this, not the arrays: a failing `#expect` would print millions of samples).
    public static func firstDifference(_ a: [Float], _ b: [Float]) -> Int? {
        if let index = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) { return index / 2 }
        return a.count == b.count ? nil : min(a.count, b.count) / 2
    }

    /// Length of each run of exact digital silence in `samples` (stereo), with its first frame.
    public static func silentRuns(_ samples: [Float]) -> [(start: Int, frames: Int)] {
        var runs: [(Int, Int)] = []
        var start: Int?
        let frames = samples.count / 2
        for frame in 0..<frames {
            let silent = samples[2 * frame] == 0 && samples[2 * frame + 1] == 0
            if silent, start == nil { start = frame }
            if !silent, let first = start {
                runs.append((first, frame - first))
                start = nil
            }
        }
        if let first = start { runs.append((first, frames - first)) }
        return runs
    }
}
