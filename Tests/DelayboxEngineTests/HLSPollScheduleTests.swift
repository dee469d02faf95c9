import DelayboxEngine
import DelayboxSimulation
import DelayboxUnits
import Testing

/// When the box asks a live HLS playlist again (issue 67), in virtual time: densely around
/// a segment's due time, at the spec's pace outside it.
@Suite(.timeLimit(.minutes(10))) struct HLSPollScheduleTests {
    let target = TimeAmount.seconds(6)

    @Test func searchesAtATenthOfTheTargetUntilASegmentAppears() {
        let schedule = HLSPollSchedule(targetDuration: target, newestDuration: .seconds(6))
        let now = Instant.seconds(100)
        // A tenth of 6 s, at most 500 ms, drawn between three and five quarters of it.
        #expect(schedule.nextPoll(after: now, draw: 0) == now + .milliseconds(375))
        #expect(schedule.nextPoll(after: now, draw: 0.5) == now + .milliseconds(500))
        let short = HLSPollSchedule(targetDuration: .seconds(1), newestDuration: .seconds(1))
        #expect(short.nextPoll(after: now, draw: 0.5) == now + .milliseconds(100), "no faster than 100 ms")
    }

    @Test func pollsDenselyAroundTheDueTimeOnly() {
        var schedule = HLSPollSchedule(targetDuration: target, newestDuration: target)
        let appeared = Instant.seconds(100)
        schedule.polled(at: appeared - .milliseconds(40), newSegmentLasting: nil)
        schedule.polled(at: appeared, newSegmentLasting: .milliseconds(5_990))
        let due = appeared + .milliseconds(5_990)
        // Right after an appearance: nothing until 150 ms (and the 40 ms it may have been
        // listed before it was seen) before the next is due.
        let first = schedule.nextPoll(after: appeared + .milliseconds(50), draw: 0)
        // (Typed: Swift 6.0 reads `due - .milliseconds(190)` in #expect as Instant − Instant,
        // a TimeAmount, and compares the two as AnyHashable.)
        let opens: Instant = due - TimeAmount.milliseconds(190)
        #expect(first == opens)
        // Then 20 to 40 ms apart, and from 40 ms before it is due 5 to 15.
        let early: Instant = due - TimeAmount.milliseconds(70)
        #expect(schedule.nextPoll(after: due - TimeAmount.milliseconds(100), draw: 0.5) == early)
        #expect(schedule.nextPoll(after: due, draw: 0) == due + .milliseconds(5))
        #expect(schedule.nextPoll(after: due, draw: 0.5) == due + .milliseconds(10))
        // Long past due (a pause at the station): the spec's half target.
        let late = due + .seconds(2)
        #expect(schedule.nextPoll(after: late, draw: 0) == late + .seconds(3))
    }

    /// A segment is seen within the window's widest interval of being listed, whatever the
    /// phase of the station's 6.0012 s period against the polls, in about ten polls.
    @Test func seesEachSegmentSoonAfterItIsListedWhateverThePhase() {
        var schedule = HLSPollSchedule(targetDuration: target, newestDuration: target)
        var generator = SplitMix64(seed: 7)
        let period = TimeAmount.microseconds(6_001_200)  // a station 200 ppm slow
        var listed = Instant.seconds(10)
        var now = Instant.seconds(9)
        var lateness: [Int64] = []
        var polls = 0
        for _ in 0..<500 {
            while true {
                now = schedule.nextPoll(after: now, draw: Double.random(in: 0..<1, using: &generator))
                polls += 1
                guard now >= listed else {
                    schedule.polled(at: now, newSegmentLasting: nil)
                    continue
                }
                break
            }
            lateness.append((now - listed).nanoseconds / 1_000)
            schedule.polled(at: now, newSegmentLasting: target)
            listed = listed + period
        }
        // The first is found while searching; the window after it opens early enough.
        let seen = lateness.dropFirst()
        #expect(seen.max()! <= 15_000, "within 15 ms of being listed: \(seen.max()!) µs")
        let mean = seen.reduce(0, +) / Int64(seen.count)
        #expect((3_000...8_000).contains(mean), "\(mean) µs on average")
        #expect(lateness.first.map { $0 <= 625_000 } == true, "searching: \(lateness.first ?? -1) µs")
        #expect(Double(polls) / 500 < 12, "\(Double(polls) / 500) polls a segment")
    }
}
