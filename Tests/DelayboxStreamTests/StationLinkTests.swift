import DelayboxConfig
import DelayboxTestSupport
import Foundation
import Testing

/// The links a listener copies from a station's website play (issue 42; on 7f046b5 a
/// `.pls` was "Format lrc detected", an `.m3u` "Invalid data found"): each format, served
/// over http, leads `delaybox play` to the stream; a dead first entry gives way to the next.
@Suite(.serialized, .timeLimit(.minutes(10))) struct StationLinkTests {
    static let root = IcecastStreamTests.root

    /// A 440 Hz MP3 of `seconds` as `file`, served over http from a directory of its own.
    static func served(seconds: Double = 3, as file: String = "live.mp3") throws -> (StaticHTTPServer, URL) {
        let directory = try ExternalTool.temporaryDirectory("station-links")
        try ExternalTool.encodeTone(
            frequency: 440, seconds: seconds, sampleRate: 44_100, channels: 2,
            codecArguments: ["-c:a", "libmp3lame", "-b:a", "128k"],
            to: directory.appendingPathComponent(file).path)
        return (try StaticHTTPServer(directory: directory), directory)
    }

    @Test(arguments: [
        ("station.pls", "[playlist]\nNumberOfEntries=2\nFile1=DEAD\nFile2=LIVE\n"),
        ("station.m3u", "#EXTM3U\n#EXTINF:-1,Station\nDEAD\nlive.mp3\n"),
        (
            "station.xspf",
            "<?xml version=\"1.0\"?><playlist><trackList><track><location>DEAD</location></track><track><location>LIVE</location></track></trackList></playlist>"
        ),
        ("station.asx", "<asx version=\"3.0\"><entry><ref href=\"DEAD\"/><ref href=\"LIVE\"/></entry></asx>"),
    ])
    func aStationLinkPlaysItsFirstStreamThatOpens(file: String, text: String) throws {
        let (server, directory) = try Self.served()
        defer { try? FileManager.default.removeItem(at: directory) }
        try text.replacingOccurrences(of: "DEAD", with: server.url("gone.mp3")).replacingOccurrences(
            of: "LIVE", with: server.url("live.mp3")
        )
        .write(to: directory.appendingPathComponent(file), atomically: true, encoding: .utf8)
        let run = try PlayRun(root: Self.root, arguments: [server.url(file), "--fast", "--delay", "1"]).finish()
        #expect(run.status == 0)
        #expect(run.lines.states.contains("playing"), "\(run.lines)")
        let notes = run.lines.lines("info").compactMap { $0.text }.filter {
            $0.hasPrefix("station link:")
        }
        #expect(
            notes.count == 1 && notes[0].contains("playing #2: \(server.url("live.mp3"))")
                && notes[0].contains("#1 failed"), "\(notes)")
    }

    /// Issue 60: the club's "listen live" page is a station link too — its player's source,
    /// a playlist linked from it, a stream in its script's JSON — the dead first candidate
    /// giving way to the next, and what was found said; a page with none says so.
    @Test(arguments: [
        "<!DOCTYPE html><html><body><audio controls><source src=\"DEAD\"><source src=\"live.mp3\"></audio></body></html>",
        "<!doctype html><html><body><a href=\"gone.pls\">x</a><a href=\"/station.pls\">Listen</a></body></html>",
        "<html><script>player({\"file\": \"DEAD\", \"fallback\": \"LIVE_ESCAPED\"})</script></html>",
    ])
    func aStationsWebPageLeadsToItsStream(page: String) throws {
        let (server, directory) = try Self.served()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "[playlist]\nFile1=\(server.url("live.mp3"))\n".write(
            to: directory.appendingPathComponent("station.pls"), atomically: true, encoding: .utf8)
        try page.replacingOccurrences(of: "DEAD", with: server.url("gone.mp3"))
            .replacingOccurrences(
                of: "LIVE_ESCAPED", with: server.url("live.mp3").replacingOccurrences(of: "/", with: "\\/")
            )
            .write(to: directory.appendingPathComponent("listen.html"), atomically: true, encoding: .utf8)
        let run = try PlayRun(root: Self.root, arguments: [server.url("listen.html"), "--fast", "--delay", "1"])
            .finish()
        #expect(run.status == 0)
        #expect(run.lines.states.contains("playing"), "\(run.lines)")
        let notes = run.lines.lines("info").compactMap { $0.text }.filter { $0.hasPrefix("web page:") }
        #expect(notes.count == 1 && notes[0].contains("#1 failed"), "\(notes)")
        try "<html><body>Tickets on sale</body></html>".write(
            to: directory.appendingPathComponent("news.html"), atomically: true, encoding: .utf8)
        let none = try ExternalTool.execute(
            BuiltProgram.url("delaybox", root: Self.root), ["play", server.url("news.html"), "--fast", "--delay", "1"])
        #expect(
            none.status != 0 && none.errors.contains("news.html is a web page with no stream or station link on it"),
            "\(none.errors)")
    }

    /// A link to a recording (a podcast, last week's match) read at network speed ends at
    /// once: the box says what the link is and fetches it again only every half minute
    /// (7f046b5's box fetched a 2 MB file 53 times in 8 s; until now ~8 times in its
    /// first minute) (issue 60).
    @Test func aRecordingIsFetchedAgainLessAndLessOftenAndSaidToBeOne() throws {
        let (server, directory) = try Self.served(seconds: 60, as: "episode.mp3")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try PlayRun(root: Self.root, arguments: [server.url("episode.mp3"), "--for", "8", "--delay", "1"])
            .finish()
        let fetched = server.requests(for: "episode.mp3")
        #expect(fetched == 1, "fetched \(fetched) times in 8 s")
        let reasons = run.lines.compactMap(\.reason)
        #expect(reasons.contains { $0.contains("the link is a recording, not a live stream") }, "\(reasons)")
    }

    /// A whole box on a `.pls` that names a recording says so in `status` (and so on its
    /// page, which shows `stream_problem`), instead of only in its log (issue 60).
    @Test func aRecordingsLinkIsSaidInTheBoxsStatus() throws {
        let (server, directory) = try Self.served(seconds: 60, as: "episode.mp3")
        defer { try? FileManager.default.removeItem(at: directory) }
        try "[playlist]\nFile1=\(server.url("episode.mp3"))\n".write(
            to: directory.appendingPathComponent("episode.pls"), atomically: true, encoding: .utf8)
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "recording-status",
            arguments: ["--seconds", "30"]
        ) { boxDirectory in
            """
            board:
              name: Recording
              hat: none
            audio:
              device: wav:\(boxDirectory.appendingPathComponent("out.wav").path)
              period: 20 ms
              periods: 4
            channels:
              - name: Episode
                url: \(server.url("episode.pls"))
            defaults:
              initial_buffer: 1 s
              delay: 1 s
            """
        }
        let said = Eventually.holds(within: 20, every: 0.2) {
            let status = (try? box.ctl(["status"]))?.output ?? ""
            return status.contains("stream_problem: end of stream: the link is a recording, not a live stream")
        }
        #expect(said, "\((try? box.ctl(["status"]))?.output ?? "")\n\(box.log)")
    }

    /// A playlist that names only a local file plays nothing and says why.
    @Test func aStationLinkToALocalFileIsRefused() throws {
        let (server, directory) = try Self.served()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "[playlist]\nFile1=file://\(directory.path)/live.mp3\n".write(
            to: directory.appendingPathComponent("evil.pls"), atomically: true, encoding: .utf8)
        let run = try PlayRun(root: Self.root, arguments: [server.url("evil.pls"), "--fast", "--delay", "1"]).finish()
        #expect(run.status != 0 || !run.lines.states.contains("playing"), "\(run.lines)")
    }
}
