import DelayboxConfig
import DelayboxEngine
import DelayboxFFmpeg
import DelayboxStream
import DelayboxTestSupport
import Foundation
import Testing

/// A live HLS stream (ffmpeg writing AAC segments, a real HTTP server serving them).
@Suite(
    .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs ffmpeg"),
    .timeLimit(.minutes(10)))
struct HLSStreamTests {
    /// ffmpeg writing a live 440 Hz tone as HLS (`segmentSeconds` segments, `listSize`
    /// listed, older ones deleted) into a directory of its own, served over HTTP.
    final class LiveHLS {
        let directory: URL
        let writer: LaunchedProgram
        let server: StaticHTTPServer

        /// `keepSegments`: the files stay on disk (their times say when each was listed).
        init(segmentSeconds: Int, listSize: Int, bitrate: String, keepSegments: Bool = false) throws {
            directory = try ExternalTool.temporaryDirectory("hls")
            writer = try ExternalTool.spawn(
                [
                    "ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
                    "sine=frequency=440:sample_rate=44100",
                    "-ac", "2", "-c:a", "aac", "-b:a", bitrate, "-f", "hls", "-hls_time", String(segmentSeconds),
                    "-hls_list_size", String(listSize),
                ] + (keepSegments ? [] : ["-hls_flags", "delete_segments"]) + [
                    directory.appendingPathComponent("live.m3u8").path
                ])
            server = try StaticHTTPServer(directory: directory)
        }

        deinit {
            writer.kill()
            try? FileManager.default.removeItem(at: directory)
        }

        /// The segments the playlist lists now.
        var listed: Int {
            let playlist = directory.appendingPathComponent("live.m3u8").path
            return
                ((try? String(contentsOfFile: playlist, encoding: .utf8))?.components(separatedBy: "#EXTINF").count
                ?? 1) - 1
        }

        /// `delaybox play` of the playlist with `arguments` after it, to its end.
        func play(_ arguments: [String]) throws -> (status: Int32, diedOfSignal: Bool, lines: [PlayLine]) {
            try PlayRun(root: IcecastStreamTests.root, arguments: [server.url("live.m3u8")] + arguments).finish()
        }
    }

    /// Issue 67: the box fetches each segment the moment the playlist lists it, so its
    /// arrivals follow the station's clock (FFmpeg's demuxer fetched it at its own next
    /// reload, up to a segment later, and the station's rate never showed). Each delivery
    /// after the first two, against the time ffmpeg closed the segment file, on one clock.
    @Test func eachSegmentArrivesAsSoonAsItIsListed() throws {
        let stream = try LiveHLS(segmentSeconds: 2, listSize: 0, bitrate: "64k", keepSegments: true)
        #expect(Eventually.holds(within: 15) { stream.listed > 2 }, "a few segments listed")
        let gate = InterruptGate()
        let opened = try ChannelInput.open(stream.server.url("live.m3u8"), options: .init(), gate: gate)
        #expect(opened.input.formatName == "mpegts", "followed by the box, not FFmpeg's hls demuxer")
        var deliveries: [Date] = []
        var last = Date.distantPast
        let end = Date().addingTimeInterval(17)
        while Date() < end, try opened.input.readPacket() != nil {
            let now = Date()
            if now.timeIntervalSince(last) > 0.5 { deliveries.append(now) }
            last = now
        }
        let listed: [Date] = try FileManager.default.contentsOfDirectory(
            at: stream.directory, includingPropertiesForKeys: [.contentModificationDateKey]
        ).filter { $0.pathExtension == "ts" }.compactMap {
            try $0.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
        }.sorted()
        let lateness: [Int] = deliveries.dropFirst(2).map { delivery in
            let made = listed.last { $0 <= delivery } ?? .distantPast
            return Int((delivery.timeIntervalSince(made) * 1_000).rounded())
        }
        #expect(lateness.count >= 6, "a delivery every 2 s: \(lateness)")
        // Under load (make test's parallel suites) a poll or the server may lag a little;
        // FFmpeg's reloads lagged by seconds.
        let median = lateness.sorted()[lateness.count / 2]
        #expect((0...50).contains(median), "ms after the segment was listed: \(lateness)")
        #expect(lateness.allSatisfy { (0...500).contains($0) }, "ms after the segment was listed: \(lateness)")
    }

    /// Issue 67: segments that left the playlist before the box fetched them (a box that
    /// fell behind, a server that drops them fast) are audio lost on the station's clock:
    /// the packet after them says so, and its timestamp keeps their gap (it was taken for
    /// an encoder's new origin and closed, the loss unsaid and the delay shifted by it).
    /// A live playlist written by hand over 1 s segments ffmpeg cut from one tone; the later
    /// listing numbered on, or by a stranger's jump to the largest number read (a count of
    /// missed segments times their length overflowed: the box trapped).
    @Test(arguments: [5, (1 << 52) - 10])
    func segmentsDroppedBeforeTheyWereFetchedAreAGapOfLostAudio(numberedFrom: Int) throws {
        let directory = try ExternalTool.temporaryDirectory("hls-dropped")
        defer { try? FileManager.default.removeItem(at: directory) }
        try ExternalTool.run([
            "ffmpeg", "-nostdin", "-loglevel", "error", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=44100:duration=8", "-ac", "2", "-c:a", "aac", "-b:a", "64k", "-f", "hls",
            "-hls_time", "1", "-hls_list_size", "0", "-hls_segment_filename",
            directory.appendingPathComponent("seg%d.ts").path, directory.appendingPathComponent("vod.m3u8").path,
        ])
        let vod = try String(contentsOf: directory.appendingPathComponent("vod.m3u8"), encoding: .utf8)
        let lengths = vod.split(separator: "\n").filter { $0.hasPrefix("#EXTINF:") }.compactMap {
            Double($0.dropFirst("#EXTINF:".count).split(separator: ",")[0])
        }
        try #require(lengths.count >= 8, Comment(rawValue: vod))
        @Sendable func list(_ segments: Range<Int>, numberedFrom first: Int) throws {
            let entries = segments.map { "#EXTINF:\(lengths[$0]),\nseg\($0).ts\n" }.joined()
            let text = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:\(first)\n"
            let staged = directory.appendingPathComponent("staged.m3u8")
            try (text + entries).write(to: staged, atomically: true, encoding: .utf8)
            // Renamed into place: the box never reads a half-written playlist.
            guard rename(staged.path, directory.appendingPathComponent("live.m3u8").path) == 0 else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        try list(0..<3, numberedFrom: 0)
        let server = try StaticHTTPServer(directory: directory)
        let opened = try ChannelInput.open(server.url("live.m3u8"), options: .init(), gate: InterruptGate())
        #expect(opened.input.formatName == "mpegts", "followed by the box")
        // Segments 3 and 4 are listed and gone while the box waits: 5-7 are what it sees next.
        let dropped = Thread { try? list(5..<8, numberedFrom: numberedFrom) }
        Thread.sleep(forTimeInterval: 1.5)
        dropped.start()
        // Read into segment 7: the audio of 0-2, 5 and 6 (the last packets of a segment may
        // wait for the next one's bytes).
        let heard = Int64((lengths[0..<3].reduce(0, +) + lengths[5] + lengths[6]) * 48_000)
        var packets: [StreamPacket] = []
        while packets.reduce(0, { $0 + Int64($1.durationFrames) }) < heard, let packet = try opened.input.readPacket() {
            packets.append(packet)
        }
        let jumps = zip(packets, packets.dropFirst()).map { before, after in
            (
                frames: after.connectionTimestamp - before.connectionTimestamp - Int64(before.durationFrames),
                told: after.followsLostAudio
            )
        }
        let told = jumps.filter { $0.told }
        try #require(told.count == 1, "one packet says audio was lost before it: \(jumps.filter { $0.frames != 0 })")
        let lost = Double(told[0].frames) / 48_000
        #expect(abs(lost - (lengths[3] + lengths[4])) < 0.05, "lost \(lost) s of segments 3 and 4: \(lengths)")
        #expect(jumps.filter { !$0.told }.allSatisfy { abs($0.frames) <= 48 }, "the rest contiguous")
    }

    @Test func aLiveHLSStreamPlaysDelayed() throws {
        let stream = try LiveHLS(segmentSeconds: 1, listSize: 6, bitrate: "128k")
        #expect(Eventually.holds(within: 15) { stream.listed > 2 }, "a few segments listed, as on a live server")
        let result = try stream.play(["--delay", "3", "--for", "8"])
        #expect(result.status == 0)
        let states = result.lines.states
        #expect(states.prefix(3) == ["connecting", "buffering", "playing"])
        #expect(states.last == "playing", "\(states)")
    }

    /// Issue 67: 6 s segments, whose next playlist FFmpeg waits for inside one read, play
    /// through — no reconnect, no audio lost (the 5 s deadline of a byte stream cut every one).
    @Test func longSegmentsPlayWithoutAStall() throws {
        let stream = try LiveHLS(segmentSeconds: 6, listSize: 4, bitrate: "64k")
        #expect(Eventually.holds(within: 30) { stream.listed > 1 }, "two segments listed: \(stream.listed)")
        let result = try stream.play(["--delay", "3", "--for", "24"])
        #expect(result.status == 0)
        let states = result.lines.states
        #expect(!states.contains("reconnecting"), "\(states)")
        #expect(states.last == "playing", "\(states)")
    }

    /// Issue 67: 10 s segments asked to play 3 s behind — less than a segment, which cannot
    /// hold: the box waits for the second delivery, says the delay it raised to, and plays
    /// from then on without stopping (it played 3 s and stopped for 7.4 s, then again at
    /// 20 s and 50 s, creeping up).
    @Test func segmentsLongerThanTheDelayPlayOnceWithoutStopping() throws {
        let stream = try LiveHLS(segmentSeconds: 10, listSize: 3, bitrate: "64k")
        #expect(Eventually.holds(within: 30) { stream.listed > 0 }, "a segment listed")
        let result = try stream.play(["--delay", "3", "--for", "45"])
        #expect(result.status == 0)
        let states = result.lines.states
        #expect(states == ["connecting", "buffering", "playing"], "\(states)")
        let raised = result.lines.lines("delay").compactMap(\.ms)
        #expect(raised.count == 1 && (10_500...14_000).contains(raised.first ?? 0), "\(raised)")
    }

    /// A playlist of files on disk (`delaybox play`, a board's formats) is read at the pace it
    /// is played, not a segment at a time: it plays at once (waiting for a pause between
    /// deliveries, it played nothing on the boards: issue 67's first cut).
    @Test func aPlaylistOfFilesOnDiskPlaysAtOnce() throws {
        let directory = try ExternalTool.temporaryDirectory("hls-files")
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixture = try #require(FormatFixtures.all.first { $0.file == "ts.m3u8" })
        let path = try FormatFixtures.make(fixture, in: directory)
        let result = try PlayRun(root: IcecastStreamTests.root, arguments: [path, "--delay", "1", "--for", "3"])
            .finish()
        let playing = result.lines.lines("state").first { $0.to == "playing" }
        #expect(playing?.t.map { $0 < 2.5 } == true, "\(result.lines.states)")
    }
}
