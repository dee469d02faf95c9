import DelayboxAudio
import Testing

@Suite(.timeLimit(.minutes(10))) struct TestToneTests {
    /// 0.5 s of a steady programme at 0.5 on both channels.
    static func programme() -> [Float] { [Float](repeating: 0.5, count: 2 * 24_000) }

    @Test func offLeavesTheProgrammeUntouched() {
        var tone = TestTone()
        var samples = Self.programme()
        tone.apply(to: &samples, frames: 24_000)
        #expect(samples.allSatisfy { $0 == 0.5 })
    }

    /// On: after the 20 ms crossfade, a 1 kHz sine at -18 dBFS on both channels; the
    /// crossfade itself never jumps (no click); off: the programme again.
    @Test func onIsAOneKilohertzSineAtMinusEighteenDBFSFadedInWithoutAClick() {
        var tone = TestTone()
        tone.isOn = true
        var samples = Self.programme()
        tone.apply(to: &samples, frames: 24_000)
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        #expect(stride(from: 0, to: samples.count, by: 2).allSatisfy { samples[$0] == samples[$0 + 1] })
        let steady = left[960...]
        #expect(abs((steady.map(abs).max() ?? 0) - 0.1259) < 0.001, "peak \(steady.map(abs).max() ?? 0)")
        let crossings = zip(steady, steady.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(
            abs(crossings - 2 * 1_000 * steady.count / 48_000) <= 2,
            "\(crossings) zero crossings in \(steady.count) frames")
        let jump = zip(left, left.dropFirst()).map { abs($1 - $0) }.max() ?? 1
        #expect(jump < 0.03, "largest step between samples \(jump)")

        tone.isOn = false
        var after = Self.programme()
        tone.apply(to: &after, frames: 24_000)
        #expect(after[(2 * 960)...].allSatisfy { $0 == 0.5 }, "the programme after the 20 ms crossfade")
    }
}
