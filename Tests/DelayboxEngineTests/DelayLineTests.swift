import Testing

@testable import DelayboxEngine

@Suite(.timeLimit(.minutes(10))) struct DelayLineTests {
    func filledLine() -> DelayLine {
        let line = DelayLine()
        line.append([1, 2, 3], durationFrames: 100, at: 0)
        line.append([4, 5], durationFrames: 100, at: 100)
        line.append([6], durationFrames: 100, at: 500)  // 300 frames lost before it
        return line
    }

    @Test func findsThePacketHoldingAPosition() {
        let line = filledLine()
        #expect(line.sequence(containing: 0) == 0)
        #expect(line.sequence(containing: 199) == 1)
        #expect(line.sequence(containing: 200) == nil, "in the gap")
        #expect(line.sequence(containing: 550) == 2)
        #expect(line.sequence(containing: -1) == nil)
        #expect(line.startPosition == 0)
        #expect(line.endPosition == 600)
        #expect(Array(line.payload(of: line[1])) == [4, 5])
    }

    @Test func knowsWherePacketsAreContiguous() {
        let line = filledLine()
        #expect(!line.continuesPrevious(0))
        #expect(line.continuesPrevious(1))
        #expect(!line.continuesPrevious(2))
    }

    @Test func dropsOnlyPacketsThatEndedAndMatchesByContent() {
        let line = filledLine()
        line.dropPackets(endingBy: 150)
        #expect(line.firstSequence == 1, "packet 1 ends at 200, after 150")
        line.dropPackets(endingBy: 200)
        #expect(line.firstSequence == 2)
        #expect(Array(line.payload(of: line[2])) == [6])
        let hash = [UInt8]([6]).withUnsafeBytes { DelayLine.hash($0) }
        #expect(line.matches(2, payload: [6], hash: hash))
        #expect(!line.matches(2, payload: [7], hash: hash))
    }
}
