import DelayboxEngine
import Testing

/// Station links as station websites give them (issue 42): the streams they name, in
/// order, as fallbacks; HLS left to FFmpeg; every entry http or https (issue 39: the
/// playlist comes from strangers).
@Suite(.timeLimit(.minutes(10))) struct StationPlaylistTests {
    static let base = "https://radio.example/listen/station.pls?sid=1"

    @Test func knowsAStationLinkByItsPath() {
        for link in [
            "http://a.example/x.pls", "https://a.example/x.M3U?sid=3", "http://a.example/live.m3u8",
            "http://a.example/a.xspf",
            "http://a.example/a.asx#x",
        ] {
            #expect(StationPlaylist.isStationLink(link), "\(link)")
        }
        for other in [
            "http://a.example/live.mp3", "http://a.example/pls", "http://a.example/x.pls/stream", "file:///x.pls",
            "/srv/x.m3u",
        ] {
            #expect(!StationPlaylist.isStationLink(other), "\(other)")
        }
    }

    @Test func readsPLSInTheOrderOfItsNumbers() {
        let pls =
            "[playlist]\r\nNumberOfEntries=2\r\nFile2=http://b.example:8000/live\r\nTitle2=Backup\r\nfile1=https://a.example/live.mp3\r\nVersion=2\r\n"
        #expect(
            StationPlaylist.read(pls, from: Self.base)
                == .streams(["https://a.example/live.mp3", "http://b.example:8000/live"]))
    }

    @Test func readsM3UWithCommentsAndRelativeEntries() {
        let m3u =
            "\u{FEFF}#EXTM3U\n#EXTINF:-1,City Radio\nhttp://a.example/live.mp3\n\n/mounts/backup.mp3\nlow.aac\nhttp://a.example/live.mp3\n"
        #expect(
            StationPlaylist.read(m3u, from: Self.base)
                == .streams([
                    "http://a.example/live.mp3", "https://radio.example/mounts/backup.mp3",
                    "https://radio.example/listen/low.aac",
                ]))
    }

    @Test func leavesHLSToFFmpeg() {
        #expect(
            StationPlaylist.read("#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nseg1.ts\n", from: Self.base) == .hls)
    }

    @Test func readsXSPFAndASX() {
        let xspf = """
            <?xml version="1.0" encoding="UTF-8"?>
            <playlist version="1" xmlns="http://xspf.org/ns/0/"><trackList>
              <track><title>City</title><location>http://a.example/live.mp3?a=1&amp;b=2</location></track>
              <track><LOCATION> https://b.example/live.ogg </LOCATION></track>
            </trackList></playlist>
            """
        #expect(
            StationPlaylist.read(xspf, from: Self.base)
                == .streams(["http://a.example/live.mp3?a=1&b=2", "https://b.example/live.ogg"]))
        let asx =
            "<ASX version=\"3.0\"><Entry><Ref HREF=\"http://a.example/live.mp3\" /><ref href='https://b.example/x.aac'/></Entry></ASX>"
        #expect(
            StationPlaylist.read(asx, from: Self.base)
                == .streams(["http://a.example/live.mp3", "https://b.example/x.aac"]))
        // A tag never closed ends the list: each later `<ref` would otherwise search the rest
        // of the text for its `>` again (quadratic in a text of many unclosed tags).
        let unclosed =
            "<asx><ref href=\"http://a.example/1\"><ref href=\"http://a.example/2\""
            + String(repeating: "<ref href=\"http://a.example/3\"", count: 1_000)
        #expect(StationPlaylist.read(unclosed, from: Self.base) == .streams(["http://a.example/1"]))
    }

    /// A playlist that names a local file, another protocol or nothing plays what is left
    /// of it, or is refused with the reason.
    @Test func anEntryThatIsNotHTTPIsNotPlayed() {
        #expect(
            StationPlaylist.read("[playlist]\nFile1=file:///etc/shadow\nFile2=http://a.example/live\n", from: Self.base)
                == .streams(["http://a.example/live"]))
        #expect(
            StationPlaylist.read("C:\\music\\a.mp3\npipe:0\n", from: Self.base)
                == .refused(
                    "no stream in the playlist: entry 'C:\\music\\a.mp3' has characters a URL may not have (percent-encode them)"
                ))
        #expect(StationPlaylist.read("#EXTM3U\n", from: Self.base) == .refused("no stream in the playlist"))
        #expect(
            StationPlaylist.read("[playlist]\nFile1=demo://music\n", from: Self.base)
                == .refused("no stream in the playlist: not a stream"))
        let huge = String(repeating: "#", count: StationPlaylist.maxBytes + 1)
        #expect(StationPlaylist.read(huge, from: Self.base) == .refused("the playlist is larger than 64 KB"))
        let many = (1...40).map { "http://a.example/\($0)" }.joined(separator: "\n")
        guard case .streams(let kept) = StationPlaylist.read(many, from: Self.base) else {
            Issue.record("not read"); return
        }
        #expect(kept.count == StationPlaylist.maxEntries && kept.first == "http://a.example/1")
    }
}
