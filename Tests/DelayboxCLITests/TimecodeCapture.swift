import DelayboxTestSupport
import Foundation

/// The demo's beeped timecode as a recording heard it (a 48 kHz stereo 16-bit WAV): where
/// each pip starts and how loud it is. A pip starts on every second of the stream, so
/// the pips' phase within the second (in the recording's own frames) moves exactly as
/// the delay does, and their level is the programme's level over the hum.
struct TimecodeCapture {
    /// A sound's start: the first frame at half its peak, and that peak (of 32767).
    struct Onset: Equatable {
        var frame: Int
        var level: Int
        /// Where in its second it starts, 0..<48000 frames.
        var phase: Int { frame % TimecodeCapture.rate }
    }

    static let rate = 48_000
    let left: [Int16]
    let onsets: [Onset]

    init(wav: URL) throws {
        let samples = try WavCapture.stereoSamples(path: wav.path)
        left = stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] }
        onsets = Self.onsets(in: left)
    }

    /// The peak of each 1 ms window (48 frames), what both detectors read.
    static let window = 48
    static func peaks(in left: [Int16]) -> [Int] {
        stride(from: 0, to: left.count - window, by: window).map { start in
            left[start..<start + window].map { abs(Int($0)) }.max() ?? 0
        }
    }

    /// Sounds rising well above the hum (4× the median of 1 ms peaks), at most one per
    /// 400 ms (a pip lasts 60-600 ms).
    static func onsets(in left: [Int16]) -> [Onset] {
        let peaks = peaks(in: left)
        guard !peaks.isEmpty else { return [] }
        let hum = peaks.sorted()[peaks.count / 2]
        var found: [Onset] = []
        var index = 0
        while index < peaks.count {
            guard peaks[index] > 4 * max(hum, 1) else { index += 1; continue }
            let end = min(index + 50, peaks.count)
            let level = peaks[index..<end].max() ?? 0
            // The exact frame: the first at half the peak, wherever in its rise that is (a
            // pip swells over a few ms; a search cut off after the next window put such a
            // pip on the windows' grid instead, 48-75 frames off now and then). Some frame
            // of these windows is at the peak, so one is found.
            let from = max(0, (index - 1) * window)
            let frame = (from..<end * window).first { abs(Int(left[$0])) >= level / 2 } ?? index * window
            found.append(Onset(frame: frame, level: level))
            index += 400
        }
        return found
    }

    /// Where sounds begin from `from` to `to` seconds into the recording that do not begin at
    /// the pips' phase (`pipPhase`, within 96 frames): each a run of 1 ms windows above 4×
    /// the hum, so a click just after a pip is one — where `onsets`, holding off 400 ms after
    /// each sound, would not see it (the controls' clicks: a CI-style run on 2026-11-30 missed them).
    func soundsBesidePips(from: Double, to: Double, pipPhase: Int) -> [Int] {
        let peaks = Self.peaks(in: left)
        guard !peaks.isEmpty else { return [] }
        let loud = 4 * max(peaks.sorted()[peaks.count / 2], 1)
        let first = max(1, Int(from * Double(Self.rate)) / Self.window),
            last = min(peaks.count, Int(to * Double(Self.rate)) / Self.window)
        guard first < last else { return [] }
        return (first..<last).filter { peaks[$0] > loud && peaks[$0 - 1] <= loud }.map { $0 * Self.window }.filter {
            abs(Self.shift(from: pipPhase, to: $0 % Self.rate)) > 96 + Self.window
        }
    }

    /// The difference of two phases, wrapped to -24000..<24000 frames.
    static func shift(from: Int, to: Int) -> Int {
        ((to - from) % rate + rate + rate / 2) % rate - rate / 2
    }

    /// The onsets from `from` to `to` seconds into the recording.
    func onsets(from: Double, to: Double) -> [Onset] {
        onsets.filter { Double($0.frame) >= from * Double(Self.rate) && Double($0.frame) < to * Double(Self.rate) }
    }

    /// The typical phase of `onsets` (the median of their phases, taken around the first so
    /// that phases either side of the second's boundary count as close).
    static func phase(of onsets: [Onset]) -> Int {
        guard let first = onsets.first?.phase else { return 0 }
        return (first + median(onsets.map { shift(from: first, to: $0.phase) }) + rate) % rate
    }

    /// The middle value of `values`.
    static func median(_ values: [Int]) -> Int {
        values.sorted()[values.count / 2]
    }
}
