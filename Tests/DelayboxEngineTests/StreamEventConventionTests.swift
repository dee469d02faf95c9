import DelayboxEngine
import Testing

@Suite(.timeLimit(.minutes(10))) struct StreamEventConventionTests {
    @Test func parsesTitlesUpToTheClosingQuoteSemicolon() {
        #expect(StreamEventConvention.streamTitle(fromIcyMetadata: "StreamTitle='City v United';") == "City v United")
        #expect(StreamEventConvention.streamTitle(fromIcyMetadata: "StreamTitle='it's 1-0';\0\0\0") == "it's 1-0")
        #expect(StreamEventConvention.streamTitle(fromIcyMetadata: "StreamTitle='a';b';StreamUrl='x';") == "a';b")
        #expect(StreamEventConvention.streamTitle(fromIcyMetadata: "garbage") == nil)
    }

    @Test func turnsTaggedTitlesIntoEvents() {
        #expect(
            StreamEventConvention.events(fromTitle: "Half-time [delaybox:muted]") == [
                .title("Half-time"), .streamerMuted,
            ])
        #expect(StreamEventConvention.events(fromTitle: "[delaybox:unmuted]") == [.streamerUnmuted])
        #expect(
            StreamEventConvention.events(fromTitle: "Ads [delaybox:ad 30 https://x.example/a.mp3]")
                == [.title("Ads"), .adBreak(AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 30_000))])
        #expect(
            StreamEventConvention.events(fromTitle: "Ads [delaybox:ad 2.5 https://x.example/a.mp3]").last
                == .adBreak(AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 2_500)))
        #expect(StreamEventConvention.events(fromTitle: "Kick-off") == [.title("Kick-off")])
        #expect(
            StreamEventConvention.events(fromTitle: "Odd [delaybox:odd soon]") == [.title("Odd [delaybox:odd soon]")])
        #expect(StreamEventConvention.events(fromTitle: "").isEmpty)
    }

    /// `ad@START`: the break's start, Unix time in seconds.
    @Test func anAdTagMaySayWhenItsBreakBegan() {
        #expect(
            StreamEventConvention.events(fromTitle: "Ads [delaybox:ad@1795500300.25 30 https://x.example/a.mp3]")
                == [
                    .title("Ads"),
                    .adBreak(
                        AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 30_000, startedAt: 1_795_500_300.25)),
                ])
    }

    /// An ad tag is ours whatever its values: one that is malformed or out of the range the
    /// product means is refused with the reason (logged once per connection), not half
    /// understood and not a trap; the rest of the title counts. Issue 39: `1e16`, `2e14`
    /// and `ad@1e300` trapped the box.
    @Test(arguments: [
        ("[delaybox:ad 1e16 https://x.example/a.mp3]", "ad break length '1e16' s is outside 1 s to 15 min"),
        ("[delaybox:ad 2e14 https://x.example/a.mp3]", "ad break length '2e14' s is outside 1 s to 15 min"),
        ("[delaybox:ad 1e-300 https://x.example/a.mp3]", "ad break length '1e-300' s is outside 1 s to 15 min"),
        ("[delaybox:ad 0.999 https://x.example/a.mp3]", "ad break length '0.999' s is outside"),
        ("[delaybox:ad 900.001 https://x.example/a.mp3]", "ad break length '900.001' s is outside"),
        ("[delaybox:ad -5 https://x.example/a.mp3]", "ad break length '-5' s is outside"),
        ("[delaybox:ad nan https://x.example/a.mp3]", "ad break length 'nan' s is outside"),
        ("[delaybox:ad inf https://x.example/a.mp3]", "ad break length 'inf' s is outside"),
        ("[delaybox:ad@1e300 5 https://x.example/a.mp3]", "ad break start '1e300' is not a Unix time"),
        ("[delaybox:ad@ 30 https://x.example/a.mp3]", "ad break start '' is not a Unix time"),
        ("[delaybox:ad@soon 30 https://x.example/a.mp3]", "ad break start 'soon' is not a Unix time"),
        ("[delaybox:ad@-5 30 https://x.example/a.mp3]", "ad break start '-5' is not a Unix time"),
        ("[delaybox:ad@nan 30 https://x.example/a.mp3]", "ad break start 'nan' is not a Unix time"),
        ("[delaybox:ad soon]", "expected [delaybox:ad SECONDS URL]"),
        ("[delaybox:ad 5 file:///etc/shadow]", "'file:///etc/shadow' is not http or https"),
        ("[delaybox:ad 1 x]", "'x' is not http or https"),
        ("[delaybox:ad 5 pipe:0]", "'pipe:0' is not http or https"),
        ("[delaybox:ad 5 concat:/etc/passwd|/etc/hosts]", "is not http or https"),
        ("[delaybox:ad 5 subfile,,start,0,end,0,,:/etc/shadow]", "is not http or https"),
        ("[delaybox:ad 5 tcp://10.0.0.1:22/]", "'tcp://10.0.0.1:22/' is not http or https"),
        ("[delaybox:ad 5 https:///a.mp3]", "names no host"),
        ("[delaybox:ad 5 http://x.example\\@evil/a.mp3]", "characters a URL may not have"),
    ])
    func anAdTagOutOfRangeIsRefusedAndTheRestCounts(tag: String, reason: String) {
        let reading = StreamEventConvention.read(title: "Kick-off \(tag) [delaybox:muted]")
        #expect(reading.events == [.title("Kick-off"), .streamerMuted], "\(tag)")
        #expect(reading.refusals.count == 1 && reading.refusals[0].reason.contains(reason), "\(reading.refusals)")
        #expect(reading.refusals.first?.tag == tag)
    }

    /// The limits themselves are taken: 1 s and 15 min.
    @Test func theEdgesOfTheRangeArePlayed() {
        #expect(
            StreamEventConvention.events(fromTitle: "[delaybox:ad 1 https://x.example/a.mp3]")
                == [.adBreak(AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 1_000))])
        #expect(
            StreamEventConvention.events(fromTitle: "[delaybox:ad 900 demo://ad]") == [
                .adBreak(AdBreak(audioURL: "demo://ad", durationMs: 900_000))
            ])
        #expect(
            StreamEventConvention.events(fromTitle: "[delaybox:ad@946684800 5 demo://ad]")
                == [.adBreak(AdBreak(audioURL: "demo://ad", durationMs: 5_000, startedAt: 946_684_800))])
    }

    /// Both states at once (an ad break during half-time): each tag is an event, in order;
    /// tags are read from the end, and one not understood is text with all before it.
    @Test func aTitleMayCarrySeveralTags() {
        let ad = StreamEvent.adBreak(
            AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 30_000, startedAt: 1_795_500_300.25))
        let tag = "[delaybox:ad@1795500300.25 30 https://x.example/a.mp3]"
        #expect(
            StreamEventConvention.events(fromTitle: "Half-time: 2-1 [delaybox:muted] \(tag)") == [
                .title("Half-time: 2-1"), .streamerMuted, ad,
            ])
        #expect(StreamEventConvention.events(fromTitle: "[delaybox:muted]  \(tag)") == [.streamerMuted, ad])
        #expect(
            StreamEventConvention.events(fromTitle: "Odd [delaybox:odd] [delaybox:muted]") == [
                .title("Odd [delaybox:odd]"), .streamerMuted,
            ])
        #expect(
            StreamEventConvention.events(fromTitle: "Odd [delaybox:muted] [delaybox:odd]") == [
                .title("Odd [delaybox:muted] [delaybox:odd]")
            ])
    }

    @Test func theBroadcasterSideRoundTrips() {
        let events: [StreamEvent] = [
            .streamerMuted, .streamerUnmuted,
            .adBreak(AdBreak(audioURL: "https://x.example/a.mp3", durationMs: 15_000)),
            .adBreak(AdBreak(audioURL: "demo://ad", durationMs: 2_500, startedAt: 1_795_500_300.125)),
        ]
        for event in events {
            let title = StreamEventConvention.title(for: event, text: "Now")
            #expect(StreamEventConvention.events(fromTitle: title) == [.title("Now"), event])
        }
    }
}
