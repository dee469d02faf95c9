import DelayboxAudio
import Testing

/// The summary `stats` gives of the controls' touch-to-sound times.
@Suite(.timeLimit(.minutes(10))) struct LatencyWindowTests {
    @Test func percentilesAreTheNearestRankOfTheLatest64() {
        var window = LatencyWindow()
        #expect(window.summary == nil)
        for ms in 1...100 { window.record(microseconds: ms * 1_000 + 449) }
        #expect(window.count == 100)
        // The latest 64: 37 … 100 ms; median the 32nd (68), 95th percentile the 61st (97).
        let summary = window.summary
        #expect(summary?.p50 == 68.4 && summary?.p95 == 97.4 && summary?.max == 100.4, "\(String(describing: summary))")
        var one = LatencyWindow()
        one.record(microseconds: 42_000)
        #expect(one.summary.map { [$0.p50, $0.p95, $0.max] } == [42, 42, 42])
    }
}
