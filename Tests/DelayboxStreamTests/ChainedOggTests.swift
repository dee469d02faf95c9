import DelayboxConfig
import DelayboxTestSupport
import Foundation
import Testing

/// Ogg chained streams from a real HTTP server: the comments of each new link are stream
/// events at the link's position, and the restarted timestamps of a new link continue
/// the timeline instead of going back.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ChainedOggTests {
    static let root = IcecastStreamTests.root

    /// Two 3 s links of `codec`, titled `first` and `second`, one after the other in one file.
    func chainedFile(codec: [String], titles: (String, String), in directory: URL) throws -> String {
        var links = Data()
        for (index, title) in [titles.0, titles.1].enumerated() {
            let path = directory.appendingPathComponent("link\(index).ogg").path
            try ExternalTool.encodeTone(
                frequency: 440, seconds: 3, sampleRate: 48_000, channels: 2,
                codecArguments: codec + ["-metadata", "title=\(title)", "-f", "ogg"], to: path)
            links.append(try Data(contentsOf: URL(fileURLWithPath: path)))
        }
        try links.write(to: directory.appendingPathComponent("chained.ogg"))
        return "chained.ogg"
    }

    @Test(arguments: [["-c:a", "libopus", "-b:a", "64k"], ["-c:a", "libvorbis"]])
    func aNewLinksTitleIsAnEventAtItsPosition(codec: [String]) throws {
        let directory = try ExternalTool.temporaryDirectory("chained-ogg")
        defer { try? FileManager.default.removeItem(at: directory) }
        let name = try chainedFile(codec: codec, titles: ("Kick-off", "Half-time [delaybox:muted]"), in: directory)
        let server = try StaticHTTPServer(directory: directory)
        let result = try PlayRun(root: Self.root, arguments: [server.url(name), "--fast", "--delay", "2"]).finish()
        #expect(result.status == 0)
        let events = result.lines.lines("event")
        let titles = events.filter { $0.kind == "title" }.compactMap { $0.detail }
        #expect(titles == ["title 'Kick-off'", "title 'Half-time'"], "each link's title once, the tag taken off")
        let muted = try #require(events.first { $0.kind == "muted" })
        // The second link starts 3 s into the stream, heard 2 s later; codec priming
        // (Opus pre-skip, Vorbis's first block) moves it by a few ms.
        let heard = Double(try #require(muted.outputFrame)) / 48_000
        #expect(abs(heard - 5) < 0.03, "muted heard at \(heard) s")
        #expect(result.lines.lines("audio_lost").isEmpty, "the new link's timestamps continue the timeline")
        #expect(result.lines.lines("packet_rejected").isEmpty)
        let ended = try #require(
            result.lines.lines("state").first { $0.to == "reconnecting" }?.t)
        #expect(
            abs(ended - 6) < 0.1, "both links are on the timeline, one after the other: the stream ends at \(ended) s")
    }
}
