import DelayboxAnswers
import DelayboxConfig
import DelayboxEngine
import Foundation
import Testing

/// Issue 69: the events heard are a collaborator of the playout that owns its list, tested
/// without a box: `events`' last 20 entries and what the doors are told of each.
@Suite(.timeLimit(.minutes(10))) struct HeardEventsTests {
    func title(_ index: Int) -> EngineNotification {
        .eventTookEffect(
            TimelineEvent(event: .title("Goal \(index)"), position: 48_000 * Int64(index)), .reached,
            outputFrame: 0, elapsedFrames: 0)
    }

    @Test func theLast20AreKeptNewestLastAndEachIsTold() throws {
        var events = HeardEvents()
        let start = Date(timeIntervalSince1970: 3_600 * 24 + 45 * 60)
        var told: [HeardEvent] = []
        for index in 0..<25 {
            let heard = start.addingTimeInterval(Double(index))
            if let event = events.heard(title(index), at: heard, utcOffsetSeconds: 0) { told.append(event) }
        }
        #expect(told.count == 25)
        #expect(events.recent.count == HeardEvents.kept)
        #expect(events.recent.first == "event: title 'Goal 5' reached · stream 5.000 s · heard 00:45:05.000")
        #expect(events.recent.last?.hasPrefix("event: title 'Goal 24' reached") == true)
        let last = try #require(told.last)
        #expect(last.kind == "title" && last.transition == "reached" && last.streamS == 24)
        #expect(last.heardUnixMs == Int64((start.timeIntervalSince1970 + 24) * 1000))
    }

    /// Playout moving within an ad break (a delay change inside it), and what is no event,
    /// are neither told nor listed.
    @Test func aMoveWithinABreakIsNoEventHeard() {
        var events = HeardEvents()
        let ad = StreamEvent.adBreak(AdBreak(audioURL: "http://clips/ad.mp3", durationMs: 6_000))
        let moved = EngineNotification.eventTookEffect(
            TimelineEvent(event: ad, position: 0), .movedByJump, outputFrame: 0, elapsedFrames: 48_000)
        let told = events.heard(moved, at: Date(timeIntervalSince1970: 0))
        let delay = events.heard(.delayChanged(milliseconds: 7_000, reason: .requested), at: Date())
        #expect(told == nil && delay == nil)
        #expect(events.recent.isEmpty)
    }
}
