import DelayboxEngine
import Testing

@Suite(.timeLimit(.minutes(10))) struct ChannelLineupTests {
    let city = Channel(
        name: "City Radio", streamURL: "https://radio.example/city.mp3", muteMusicURL: "file:///srv/music.ogg")
    let club = Channel(name: "Club TV", streamURL: "http://10.0.0.2:8000/live.opus", adsEnabled: false)

    @Test func nextStepsThroughAllChannelsAndWraps() throws {
        var lineup = try ChannelLineup([city, club])
        #expect(lineup.selected == city)
        lineup.selectNext()
        #expect(lineup.selected == club)
        lineup.selectNext()
        #expect(lineup.selected == city)
    }

    @Test func selectingByNameIgnoresCaseAndRefusesUnknownNames() throws {
        var lineup = try ChannelLineup([city, club])
        let found = lineup.select(named: "club tv")
        #expect(found && lineup.selectedIndex == 1)
        let unknown = lineup.select(named: "Nope")
        #expect(!unknown)
        #expect(lineup.selectedIndex == 1, "an unknown name changes nothing")
    }

    @Test func everyProblemIsListed() {
        let bad = [
            Channel(name: " ", streamURL: ""), Channel(name: "City Radio", streamURL: "not a url://x/y"),
            Channel(name: "city radio", streamURL: "/srv/a.mp3", muteMusicURL: "gopher://old"),
        ]
        #expect(throws: InvalidConfiguration.self) { try ChannelLineup([]) }
        do {
            _ = try ChannelLineup(bad)
            Issue.record("accepted \(bad)")
        } catch {
            #expect(error.problems.count == 5, "\(error.problems)")
            #expect(error.problems.contains { $0.contains("no name") })
            #expect(error.problems.contains { $0.contains("no stream URL") })
            #expect(error.problems.contains { $0.contains("'not a url://x/y' has no valid scheme") })
            #expect(error.problems.contains { $0.contains("'gopher'") })
            #expect(error.problems.contains { $0.contains("two channels are named 'city radio'") })
        }
    }

    @Test func anyStreamSchemeFFmpegMightKnowIsAccepted() throws {
        for url in [
            "srt://10.0.0.1:9000", "rtmp://host/live", "hls+https://cdn/x.m3u8", "/srv/match.mp3", "udp://@:1234",
        ] {
            #expect(Channel(name: "x", streamURL: url).problems().isEmpty, "\(url)")
        }
    }

    @Test func aSelectionOutOfRangeFallsBackToTheFirst() throws {
        #expect(try ChannelLineup([city, club], selected: 7).selected == city)
    }
}
