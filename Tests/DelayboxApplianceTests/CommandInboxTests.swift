import DelayboxControls
import DelayboxUnits
import Synchronization
import Testing

@testable import DelayboxDoors

/// Issue 44: the front panel's and the remote's commands wake the playout thread as the
/// console's requests do; before, a detent waited for the next scheduled wake-up (up to
/// 80 ms) before its click was even asked for.
@Suite(.timeLimit(.minutes(10))) struct CommandInboxTests {
    @Test func aPostedCommandRingsThePlayoutAwakeAndNothingRingsForNothing() {
        let rings = Atomic<Int>(0)
        let inbox = CommandInbox(ring: { rings.add(1, ordering: .relaxed) })
        inbox.post([])
        #expect(rings.load(ordering: .relaxed) == 0)
        inbox.post([
            TimedCommand(.adjustDelay(milliseconds: 100), at: .milliseconds(1)),
            TimedCommand(.adjustVolume(steps: 1), at: .milliseconds(2)),
        ])
        #expect(rings.load(ordering: .relaxed) == 1)
        #expect(
            inbox.drain() == [
                TimedCommand(.adjustDelay(milliseconds: 100), at: .milliseconds(1)),
                TimedCommand(.adjustVolume(steps: 1), at: .milliseconds(2)),
            ],
            "with when each control was touched: the measure of its sound's latency")
    }
}
