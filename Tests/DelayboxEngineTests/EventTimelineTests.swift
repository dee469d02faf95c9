import Testing

@testable import DelayboxEngine

@Suite(.timeLimit(.minutes(10))) struct EventTimelineTests {
    let ad = AdBreak(audioURL: "file:///ads/a.mp3", durationMs: 1_000)

    @Test func stateAtAPositionFoldsEarlierEvents() {
        var timeline = EventTimeline()
        timeline.insert(TimelineEvent(event: .streamerMuted, position: 100))
        timeline.insert(TimelineEvent(event: .title("Second half"), position: 50))
        timeline.insert(TimelineEvent(event: .streamerUnmuted, position: 300))
        #expect(timeline.state(at: 99).streamerMuted == false)
        #expect(timeline.state(at: 100).streamerMuted == true)
        #expect(timeline.state(at: 299).title == "Second half")
        #expect(timeline.state(at: 300).streamerMuted == false)
        #expect(timeline.events(in: 50..<300).map(\.position) == [50, 100])
    }

    @Test func ignoresResentDuplicates() {
        var timeline = EventTimeline()
        let first = timeline.insert(TimelineEvent(event: .streamerMuted, position: 100))
        let again = timeline.insert(TimelineEvent(event: .streamerMuted, position: 100))
        #expect(first)
        #expect(!again)
        #expect(timeline.events.count == 1)
    }

    @Test func anAdBreakIsActiveForItsDuration() {
        var timeline = EventTimeline()
        timeline.insert(TimelineEvent(event: .adBreak(ad), position: 48_000))
        #expect(timeline.state(at: 47_999).activeAd == nil)
        #expect(timeline.state(at: 48_000 + 100).activeAd?.elapsedFrames == 100)
        #expect(timeline.state(at: 96_000).activeAd == nil, "1 s later it is over")
    }

    @Test func droppingOldEventsKeepsTheirEffect() {
        var timeline = EventTimeline()
        timeline.insert(TimelineEvent(event: .streamerMuted, position: 100))
        timeline.insert(TimelineEvent(event: .title("x"), position: 200))
        timeline.dropEvents(before: 150)
        #expect(timeline.events.count == 1)
        #expect(timeline.state(at: 160).streamerMuted == true)
        timeline.shift(from: 150, by: -10)
        #expect(timeline.events.first?.position == 190)
    }

    /// An ad break that began before the oldest audio held but runs past it is kept (a
    /// box that joined during it may yet play its rest) until it is over there.
    @Test func anAdBreakStillRunningIsNotDropped() {
        var timeline = EventTimeline()
        timeline.insert(TimelineEvent(event: .streamerMuted, position: 100))
        timeline.insert(TimelineEvent(event: .adBreak(ad), position: 1_000))  // 48 000 frames long
        timeline.dropEvents(before: 40_000)
        #expect(timeline.events.map(\.position) == [1_000], "the break is kept; muted folded into the base state")
        #expect(
            timeline.state(at: 40_000).streamerMuted && timeline.state(at: 40_000).activeAd?.elapsedFrames == 39_000)
        timeline.dropEvents(before: 49_000)
        #expect(timeline.events.isEmpty)
        #expect(timeline.state(at: 49_000).activeAd == nil)
    }
}
