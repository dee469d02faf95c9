import Testing

@testable import DelayboxEngine

@Suite(.timeLimit(.minutes(10))) struct SpliceMatcherTests {
    /// A line holding packets whose payloads are `payloads`, 100 frames each.
    func line(_ payloads: [[UInt8]]) -> DelayLine {
        let line = DelayLine()
        for (index, payload) in payloads.enumerated() {
            line.append(payload, durationFrames: 100, at: Int64(index) * 100)
        }
        return line
    }

    @Test func findsAResentRunAndDecidesWhenItReachesTheNewestPacket() {
        let held = line((0..<10).map { [UInt8($0), 0xAA] })
        var matcher = SpliceMatcher(searchStart: 0)
        #expect(matcher.offer([7, 0xAA], line: held) == .undecided)
        #expect(matcher.offer([8, 0xAA], line: held) == .undecided)
        #expect(matcher.offer([9, 0xAA], line: held) == .splice(at: 7))
    }

    @Test func aMatchThatStopsBeforeTheNewestPacketIsNoSplice() {
        // Three packets match an old run, then the content differs: a coincidence.
        let held = line((0..<10).map { [UInt8($0)] })
        var matcher = SpliceMatcher(searchStart: 0)
        #expect(matcher.offer([2], line: held) == .undecided)
        #expect(matcher.offer([3], line: held) == .undecided)
        #expect(matcher.offer([4], line: held) == .undecided)
        #expect(matcher.offer([42], line: held) == .noOverlap)
    }

    @Test func reportsNoOverlapForNewAudio() {
        let held = line((0..<10).map { [UInt8($0)] })
        var matcher = SpliceMatcher(searchStart: 0)
        #expect(matcher.offer([42], line: held) == .noOverlap)
    }

    @Test func aRunThatBreaksIsNoMatch() {
        let held = line((0..<10).map { [UInt8($0)] })
        var matcher = SpliceMatcher(searchStart: 0)
        #expect(matcher.offer([4], line: held) == .undecided)
        #expect(matcher.offer([9], line: held) == .noOverlap)
    }

    @Test func repeatedSilenceStaysUndecidedWithEveryCandidate() {
        // Ten identical "silence" packets: content cannot tell which one is resent.
        let held = line(Array(repeating: [0, 0], count: 10))
        var matcher = SpliceMatcher(searchStart: 0)
        #expect(matcher.offer([0, 0], line: held) == .undecided)
        #expect(matcher.offer([0, 0], line: held) == .undecided)
        #expect(matcher.candidates == Array(0..<10))
    }

    @Test func aShortOverlapUpToTheNewestPacketIsEnough() {
        let held = line((0..<10).map { [UInt8($0)] })
        var matcher = SpliceMatcher(searchStart: 0)
        #expect(matcher.offer([9], line: held) == .splice(at: 9))
    }

    @Test func respectsTheSearchWindow() {
        let held = line((0..<10).map { [UInt8($0)] })
        var matcher = SpliceMatcher(searchStart: 5)
        #expect(matcher.offer([2], line: held) == .noOverlap)
    }
}
