import DelayboxEngine
import DelayboxUnits
import Testing

/// A live HLS playlist as the box follows it itself (issue 67): segments numbered and
/// resolved, a master playlist's audio variant chosen, what it does not follow left to
/// FFmpeg, and a stranger's numbers checked before they are added to.
@Suite(.timeLimit(.minutes(10))) struct HLSPlaylistTests {
    static let base = "https://cdn.example/radio/live.m3u8?token=1"

    static func media(sequence: Int = 41, extra: String = "") -> String {
        """
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:6
        #EXT-X-MEDIA-SEQUENCE:\(sequence)
        \(extra)#EXT-X-PROGRAM-DATE-TIME:2026-12-01T10:00:00.000Z
        #EXTINF:6.016,
        seg41.ts
        #EXTINF:5.994667,title
        /abs/seg42.ts
        #EXTINF:6.016,
        https://other.example/seg43.ts

        """
    }

    @Test func readsALiveMediaPlaylist() throws {
        guard case .media(let playlist) = HLSPlaylist.read(Self.media(), from: Self.base) else {
            Issue.record("not read as a media playlist")
            return
        }
        #expect(playlist.targetDuration == .seconds(6))
        #expect(playlist.segments.map(\.sequence) == [41, 42, 43])
        #expect(
            playlist.segments.map(\.url) == [
                "https://cdn.example/radio/seg41.ts", "https://cdn.example/abs/seg42.ts",
                "https://other.example/seg43.ts",
            ])
        #expect(playlist.segments[1].duration == .microseconds(5_994_667))
        #expect(playlist.segments(after: 41).map(\.sequence) == [42, 43])
        #expect(playlist.segments(after: 43).isEmpty)
        #expect(playlist.startSequence == 41, "three from the end, as FFmpeg's live_start_index")
    }

    @Test func startsThreeSegmentsFromTheEnd() throws {
        let segments = (0..<8).map { "#EXTINF:2.0,\ns\($0).ts\n" }.joined()
        guard
            case .media(let playlist) = HLSPlaylist.read(
                "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + segments, from: Self.base)
        else {
            Issue.record("not read")
            return
        }
        #expect(playlist.startSequence == 5)
        #expect(playlist.newestSequence == 7)
    }

    @Test func leavesToFFmpegWhatItDoesNotFollow() {
        for (extra, reason) in [
            ("#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n", "encrypted"), ("#EXT-X-MAP:URI=\"init.mp4\"\n", "fMP4"),
            ("#EXT-X-BYTERANGE:100@0\n", "byte ranges"),
        ] {
            let reading = HLSPlaylist.read(Self.media(extra: extra), from: Self.base)
            guard case .leftToFFmpeg(let said) = reading else {
                Issue.record("\(extra): \(reading)")
                continue
            }
            #expect(said.contains(reason))
        }
        guard case .leftToFFmpeg = HLSPlaylist.read(Self.media() + "#EXT-X-ENDLIST\n", from: Self.base) else {
            Issue.record("a finished playlist is FFmpeg's")
            return
        }
        guard case .media = HLSPlaylist.read(Self.media(extra: "#EXT-X-KEY:METHOD=NONE\n"), from: Self.base) else {
            Issue.record("METHOD=NONE is no encryption")
            return
        }
    }

    @Test func choosesTheMasterPlaylistsBestAudioOnlyVariant() {
        let master = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.4d401f,mp4a.40.2"
            video.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.5"
            low/audio.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=128000,CODECS="mp4a.40.2"
            high/audio.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=96000,CODECS="mp4a.40.2"
            file:///etc/passwd
            """
        #expect(HLSPlaylist.read(master, from: Self.base) == .variant("https://cdn.example/radio/high/audio.m3u8"))
        let videoOnly = """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS="avc1.4d401f,mp4a.40.2"
            hd.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=400000,CODECS="avc1.42c00d,mp4a.40.2"
            sd.m3u8
            """
        #expect(
            HLSPlaylist.read(videoOnly, from: Self.base) == .variant("https://cdn.example/radio/sd.m3u8"),
            "with video in every variant: the smallest picture")
        let unsaid = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=64000\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=96000\nb.m3u8\n"
        #expect(HLSPlaylist.read(unsaid, from: Self.base) == .variant("https://cdn.example/radio/b.m3u8"))
        let renditions = "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=\"aud\"\nv.m3u8\n"
        guard case .leftToFFmpeg = HLSPlaylist.read(renditions, from: Self.base) else {
            Issue.record("alternate audio is FFmpeg's")
            return
        }
    }

    /// The text is a stranger's: every number checked, every segment http or https.
    @Test func refusesWhatIsNotAPlaylistItCanFollow() {
        let refused: [String] = [
            "", "<html>", "#EXTM3U\n#EXTINF:6,\na.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:0\n#EXTINF:6,\na.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:99999999999999999999\n#EXTINF:6,\na.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:-1\n#EXTINF:6,\na.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXT-X-MEDIA-SEQUENCE:9223372036854775807\n#EXTINF:6,\na.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:nan,\na.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:-6,\na.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:1e300,\na.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\na.ts\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nfile:///etc/passwd\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\ndemo://x\n",
            "#EXTM3U\n#EXT-X-TARGETDURATION:6\n#EXTINF:6,\nhttp://a.example/a b.ts\n",
            "#EXTM3U\n" + String(repeating: "#", count: HLSPlaylist.maxBytes),
        ]
        for text in refused {
            guard case .refused = HLSPlaylist.read(text, from: Self.base) else {
                Issue.record("read: \(text.prefix(80))")
                continue
            }
        }
    }

    /// A window of hours keeps its newest segments, bounded.
    @Test func keepsTheNewestSegmentsOfALongWindow() {
        let count = HLSPlaylist.maxSegments + 500
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + (0..<count).map { "#EXTINF:2,\n\($0).ts\n" }.joined()
        guard case .media(let playlist) = HLSPlaylist.read(text, from: Self.base) else {
            Issue.record("not read")
            return
        }
        #expect(playlist.segments.count == HLSPlaylist.maxSegments)
        #expect(playlist.newestSequence == count - 1)
        #expect(playlist.segments.first?.url == "https://cdn.example/radio/500.ts")
    }
}
