import Testing

@testable import DelayboxControls

@Suite(.timeLimit(.minutes(10))) struct QuadratureDecoderTests {
    /// Feeds edges to a decoder; returns every non-zero detent count in order.
    func decode(_ timeline: EdgeTimeline, stepsPerDetent: Int = 4) -> [Int] {
        var decoder = QuadratureDecoder(stepsPerDetent: stepsPerDetent, a: true, b: true)
        var levels = (a: true, b: true)
        var detents: [Int] = []
        for edge in timeline.edges {
            if edge.line == timeline.a { levels.a = edge.high } else { levels.b = edge.high }
            let count = decoder.update(a: levels.a, b: levels.b)
            if count != 0 { detents.append(count) }
        }
        return detents
    }

    @Test(arguments: [1, -1])
    func detentsAreCountedExactlyWithBounceOnEveryEdge(direction: Int) {
        var timeline = EdgeTimeline(a: 5, b: 6)
        timeline.detents(25, direction: direction, bounce: true)
        #expect(decode(timeline) == Array(repeating: direction, count: 25))
    }

    @Test func aFastSpinLosesNothing() {
        var timeline = EdgeTimeline(a: 5, b: 6)
        timeline.detents(40, direction: 1, step: .microseconds(300))  // 40 detents in 48 ms
        #expect(decode(timeline).reduce(0, +) == 40)
    }

    @Test func reversingMidDetentCountsNothingForTheHalfTurn() {
        var timeline = EdgeTimeline(a: 5, b: 6)
        timeline.step(1); timeline.step(1)  // half a detent forward
        timeline.step(-1); timeline.step(-1)  // and back into the same detent
        timeline.detents(2, direction: -1, bounce: true)
        timeline.step(-1); timeline.step(1, bounce: true)  // a wobble at rest
        #expect(decode(timeline) == [-1, -1], "only the two real detents, both backwards")
    }

    @Test func bounceAtRestNeverMakesADetent() {
        var timeline = EdgeTimeline(a: 5, b: 6)
        for _ in 0..<50 {
            timeline.step(1, bounce: true)
            timeline.step(-1, bounce: true)
        }
        #expect(decode(timeline).isEmpty)
    }

    @Test func aLostTransitionIsTakenInTheDirectionOfTravel() {
        var timeline = EdgeTimeline(a: 5, b: 6)
        for detent in 0..<10 {
            timeline.step(1)
            timeline.step(1, lost: detent % 3 == 0)  // every third detent misses a state
            if detent % 3 == 0 { timeline.resync() }
            timeline.step(1)
            timeline.step(1)
        }
        #expect(decode(timeline).reduce(0, +) == 10)
    }

    @Test(arguments: [(2, 6), (1, 9)])
    func halfAndQuarterCycleEncoders(stepsPerDetent: Int, count: Int) {
        var timeline = EdgeTimeline(a: 5, b: 6)
        timeline.detents(count, direction: 1, stepsPerDetent: stepsPerDetent)
        #expect(decode(timeline, stepsPerDetent: stepsPerDetent).reduce(0, +) == count)
    }
}
