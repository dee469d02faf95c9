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

    @Test func theBroadcasterSideRoundTrips() {
        let events: [StreamEvent] = [.streamerMuted, .streamerUnmuted,
                                     .adBreak(AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 15_000))]
        for event in events {
            let title = StreamEventConvention.title(for: event, text: "Now")
            #expect(StreamEventConvention.events(fromTitle: title) == [.title("Now"), event])
        }
    }
}
