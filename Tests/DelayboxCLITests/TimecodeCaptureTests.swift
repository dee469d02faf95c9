import Foundation
import Testing

/// The board tests' pip finder on a made-up recording: the pips' onsets must move with
/// the pips themselves, frame for frame, wherever they fall on the finder's 1 ms windows.
@Suite(.timeLimit(.minutes(10))) struct TimecodeCaptureTests {
    /// Ten seconds of a quiet hum with a pip each second, each 7 frames later in its second
    /// than the one before; a pip rises linearly to its peak over `rise` frames.
    static func recording(rise: Int) -> (left: [Int16], starts: [Int]) {
        var left = (0..<(10 * TimecodeCapture.rate)).map { Int16(($0 * 7919) % 61 - 30) }
        let starts = (0..<10).map { $0 * TimecodeCapture.rate + 1000 + 7 * $0 }
        for start in starts {
            for offset in 0..<4800 {
                let envelope = min(1, Double(offset) / Double(rise))
                let tone = sin(Double(offset) * 2 * .pi * 1000 / Double(TimecodeCapture.rate))
                left[start + offset] = Int16(1350 * envelope * tone)
            }
        }
        return (left, starts)
    }

    @Test(arguments: [1, 120, 400])
    func eachPipsOnsetIsAtTheSamePlaceInItsRise(rise: Int) {
        let (left, starts) = Self.recording(rise: rise)
        let onsets = TimecodeCapture.onsets(in: left)
        #expect(onsets.count == starts.count)
        let lags = zip(onsets, starts).map { $0.frame - $1 }
        // The same lag for each (a frame either way: where the 1 kHz tone's cycle crosses
        // half the peak).
        #expect(lags.max()! - lags.min()! <= 1 && lags.min()! >= 0, "lags \(lags)")
    }
}
