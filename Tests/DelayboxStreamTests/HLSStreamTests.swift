import DelayboxTestSupport
import Foundation
import Testing

/// A live HLS stream (ffmpeg writing AAC segments, a real HTTP server serving them).
@Suite(
    .serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"), "needs ffmpeg"),
    .timeLimit(.minutes(10)))
struct HLSStreamTests {
    @Test func aLiveHLSStreamPlaysDelayed() throws {
        let directory = try ExternalTool.temporaryDirectory("hls")
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try ExternalTool.spawn([
            "ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=44100",
            "-ac", "2", "-c:a", "aac", "-b:a", "128k", "-f", "hls", "-hls_time", "1", "-hls_list_size", "6",
            "-hls_flags", "delete_segments", directory.appendingPathComponent("live.m3u8").path,
        ])
        defer { writer.kill() }
        let server = try StaticHTTPServer(directory: directory)
        let playlist = directory.appendingPathComponent("live.m3u8").path
        try Eventually.wait(for: "ffmpeg's HLS playlist", within: 10, every: 0.2) {
            FileManager.default.fileExists(atPath: playlist)
        }
        let segments = {
            (try? String(contentsOfFile: playlist, encoding: .utf8))?.components(separatedBy: "#EXTINF").count ?? 1
        }
        #expect(
            Eventually.holds(within: 15) { segments() > 3 },
            "a few segments listed, as on a live server: \(segments() - 1)")
        let run = try PlayRun(
            root: IcecastStreamTests.root, arguments: [server.url("live.m3u8"), "--delay", "3", "--for", "8"])
        let result = run.finish()
        #expect(result.status == 0)
        let states = result.lines.states
        #expect(states.prefix(3) == ["connecting", "buffering", "playing"])
        #expect(states.last == "playing", "\(states)")
    }

    /// Issue 67: 6 s segments, whose next playlist FFmpeg waits for inside one read, play
    /// through — no reconnect, no audio lost (the 5 s deadline of a byte stream cut every one).
    @Test func longSegmentsPlayWithoutAStall() throws {
        let directory = try ExternalTool.temporaryDirectory("hls-long")
        defer { try? FileManager.default.removeItem(at: directory) }
        let writer = try ExternalTool.spawn([
            "ffmpeg", "-nostdin", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=44100",
            "-ac", "2", "-c:a", "aac", "-b:a", "64k", "-f", "hls", "-hls_time", "6", "-hls_list_size", "4",
            "-hls_flags", "delete_segments", directory.appendingPathComponent("live.m3u8").path,
        ])
        defer { writer.kill() }
        let server = try StaticHTTPServer(directory: directory)
        let playlist = directory.appendingPathComponent("live.m3u8").path
        let segments = {
            (try? String(contentsOfFile: playlist, encoding: .utf8))?.components(separatedBy: "#EXTINF").count ?? 1
        }
        #expect(Eventually.holds(within: 30) { segments() > 2 }, "two segments listed: \(segments() - 1)")
        let run = try PlayRun(
            root: IcecastStreamTests.root, arguments: [server.url("live.m3u8"), "--delay", "3", "--for", "24"])
        let result = run.finish()
        #expect(result.status == 0)
        let states = result.lines.states
        #expect(!states.contains("reconnecting"), "\(states)")
        #expect(states.last == "playing", "\(states)")
    }
}
