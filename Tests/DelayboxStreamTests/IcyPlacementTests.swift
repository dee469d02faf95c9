import DelayboxConfig
import DelayboxTestSupport
import Foundation
import Testing

/// ICY titles are placed at the byte offset of their metadata block, not where the
/// demuxer happened to be when FFmpeg parsed it: a served MP3 with blocks at known
/// offsets is the ground truth.
@Suite(.serialized, .timeLimit(.minutes(10))) struct IcyPlacementTests {
    static let root = IcecastStreamTests.root

    @Test func aTitleTakesEffectAtItsBlocksPositionInTheAudio() throws {
        let directory = try ExternalTool.temporaryDirectory("icy-placement")
        defer { try? FileManager.default.removeItem(at: directory) }
        // 128 kbps CBR without ID3 or Xing header: byte b is audio time b / 16000 s.
        try ExternalTool.encodeTone(
            frequency: 440, seconds: 12, sampleRate: 44_100, channels: 2,
            codecArguments: [
                "-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0",
                "-id3v2_version", "0", "-f", "mp3",
            ],
            to: directory.appendingPathComponent("match.mp3").path)
        let server = try StaticHTTPServer(
            directory: directory,
            icyTitles: [
                1: "Kick-off", 5: "Half-time [delaybox:muted]",
                8: "Second half [delaybox:unmuted]",
            ])
        let result = try PlayRun(root: Self.root, arguments: [server.url("match.mp3"), "--fast", "--delay", "2"])
            .finish()
        #expect(result.status == 0)
        let events = result.lines.lines("event")
        func heard(_ kind: String) throws -> Double {
            let event = try #require(events.first { $0.kind == kind }, "no \(kind) event in \(events)")
            return Double(try #require(event.outputFrame)) / 48_000
        }
        // Block 5 follows 80000 bytes (5.000 s), block 8 128000 bytes (8.000 s); heard 2 s later.
        let muted = try heard("muted"), unmuted = try heard("unmuted")
        #expect(abs(muted - 7) < 0.03, "muted heard at \(muted) s")
        #expect(abs(unmuted - 10) < 0.03, "unmuted heard at \(unmuted) s")
        let titles = events.filter { $0.kind == "title" }.compactMap { $0.detail }
        #expect(titles == ["title 'Kick-off'", "title 'Half-time'", "title 'Second half'"])
    }
}
