import DelayboxEngine
import Testing

@Suite struct StreamEventConventionTests {
    @Test func parsesTitlesUpToTheClosingQuoteSemicolon() {
        #expect(StreamEventConvention.streamTitle(fromIcyMetadata: "StreamTitle='City v United';") == "City v United")
        #expect(StreamEventConvention.streamTitle(fromIcyMetadata: "StreamTitle='it's 1-0';\0\0\0") == "it's 1-0")
        #expect(StreamEventConvention.streamTitle(fromIcyMetadata: "StreamTitle='a';b';StreamUrl='x';") == "a';b")
        #expect(StreamEventConvention.streamTitle(fromIcyMetadata: "garbage") == nil)
    }

    @Test func turnsTaggedTitlesIntoEvents() {
        #expect(StreamEventConvention.events(fromTitle: "Half-time [delaybox:muted]") == [.title("Half-time"), .streamerMuted])
        #expect(StreamEventConvention.events(fromTitle: "[delaybox:unmuted]") == [.streamerUnmuted])
        #expect(StreamEventConvention.events(fromTitle: "Ads [delaybox:ad 30 https://x.example/a.mp3]")
                == [.title("Ads"), .adBreak(AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 30_000))])
        #expect(StreamEventConvention.events(fromTitle: "Ads [delaybox:ad 2.5 file:///a.mp3]").last
                == .adBreak(AdBreak(audioURL: "file:///a.mp3", durationMs: 2_500)))
        #expect(StreamEventConvention.events(fromTitle: "Kick-off") == [.title("Kick-off")])
        #expect(StreamEventConvention.events(fromTitle: "Odd [delaybox:ad soon]") == [.title("Odd [delaybox:ad soon]")])
        #expect(StreamEventConvention.events(fromTitle: "").isEmpty)
    }

    /// `ad@START`: the break's start, Unix time in seconds; one that is not a time makes
    /// the tag text, not a break without a start.
    @Test func anAdTagMaySayWhenItsBreakBegan() {
        #expect(StreamEventConvention.events(fromTitle: "Ads [delaybox:ad@1795500300.25 30 https://x.example/a.mp3]")
                == [.title("Ads"), .adBreak(AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 30_000, startedAt: 1_795_500_300.25))])
        for odd in ["[delaybox:ad@ 30 file:///a.mp3]", "[delaybox:ad@soon 30 file:///a.mp3]", "[delaybox:ad@-5 30 file:///a.mp3]",
                    "[delaybox:ad@nan 30 file:///a.mp3]", "[delaybox:adx 30 file:///a.mp3]"] {
            #expect(StreamEventConvention.events(fromTitle: odd) == [.title(odd)], "\(odd)")
        }
    }

    /// Both states at once (an ad break during half-time): each tag is an event, in order;
    /// tags are read from the end, and one not understood is text with all before it.
    @Test func aTitleMayCarrySeveralTags() {
        let ad = StreamEvent.adBreak(AdBreak(audioURL: "file:///a.mp3", durationMs: 30_000, startedAt: 1_795_500_300.25))
        let tag = "[delaybox:ad@1795500300.25 30 file:///a.mp3]"
        #expect(StreamEventConvention.events(fromTitle: "Half-time: 2-1 [delaybox:muted] \(tag)") == [.title("Half-time: 2-1"), .streamerMuted, ad])
        #expect(StreamEventConvention.events(fromTitle: "[delaybox:muted]  \(tag)") == [.streamerMuted, ad])
        #expect(StreamEventConvention.events(fromTitle: "Odd [delaybox:odd] [delaybox:muted]") == [.title("Odd [delaybox:odd]"), .streamerMuted])
        #expect(StreamEventConvention.events(fromTitle: "Odd [delaybox:muted] [delaybox:odd]") == [.title("Odd [delaybox:muted] [delaybox:odd]")])
    }

    @Test func theBroadcasterSideRoundTrips() {
        let events: [StreamEvent] = [.streamerMuted, .streamerUnmuted,
                                     .adBreak(AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 15_000)),
                                     .adBreak(AdBreak(audioURL: "file:///a.mp3", durationMs: 2_500, startedAt: 1_795_500_300.125))]
        for event in events {
            let title = StreamEventConvention.title(for: event, text: "Now")
            #expect(StreamEventConvention.events(fromTitle: title) == [.title("Now"), event])
        }
    }
}
