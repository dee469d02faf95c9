import DelayboxTestSupport
import Foundation
import Testing

/// The stream client against a real icecast2 and real ffmpeg sources on loopback, when
/// things go wrong: a dropped connection, a restarted source or server, a frozen server, a
/// mount without a source. Real time (seconds each), one at a time; a suite apart from
/// IcecastStreamTests so that the two run at once (tools/test-lanes.py).
@Suite(
    .serialized,
    .enabled(if: IcecastServer.isAvailable, "needs icecast2 and ffmpeg (deploy/setup-host.sh installs them)"),
    .timeLimit(.minutes(10)))
struct IcecastFaultTests {
    static let root = IcecastStreamTests.root

    /// A dropped connection with the source still live: the reconnect's burst overlaps
    /// what was received and is spliced in place, for MP3 frames and Opus packets alike.
    @Test(arguments: [false, true])
    func aDroppedConnectionIsSplicedInPlaceWithNothingLost(opus: Bool) throws {
        let server = try IcecastServer()
        let mount = opus ? "/live.opus" : "/live.mp3"
        try server.startSource(mount: mount, opus: opus)
        let run = try PlayRun(
            root: Self.root,
            arguments: [
                server.url(mount: mount), "--delay", "4", "--for", "12",
                "--backoff-cap", "0.2",
            ])
        run.wait(until: 6)
        #expect(try server.dropListeners(mount: mount) == 1)
        let result = run.finish()
        let states = result.lines.states
        let firstPlaying = try #require(states.firstIndex(of: "playing"))
        #expect(states[firstPlaying...].contains("reconnecting"), "the drop was noticed: \(states)")
        #expect(!states[firstPlaying...].contains("buffering"), "playout never stopped: \(states)")
        #expect(result.lines.lines("spliced").count == 1, "the burst was matched: \(result.lines.lines("spliced"))")
        #expect(result.lines.lines("audio_lost").isEmpty, "nothing lost: \(result.lines.lines("audio_lost"))")
        #expect(result.lines.lines("packet_rejected").isEmpty)
    }

    /// The source killed and restarted (the listener sees the stream end, then 404s), or
    /// the whole server (connections refused meanwhile).
    @Test(arguments: ["source", "server"])
    func aRestartIsAGapWhilePlayoutGoesOn(restarted: String) throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        let run = try PlayRun(
            root: Self.root,
            arguments: [
                server.url(mount: "/live.mp3"), "--delay", "8", "--for", "22",
                "--stall-timeout", "2", "--backoff-cap", "0.5",
            ])
        run.wait(until: 10)
        server.stopSource(mount: "/live.mp3")
        if restarted == "server" { server.stop() }
        run.wait(until: 13)
        if restarted == "server" { try server.start() }
        try server.startSource(mount: "/live.mp3")
        let result = run.finish()
        let states = result.lines.states
        let firstPlaying = try #require(states.firstIndex(of: "playing"))
        #expect(states[firstPlaying...].contains("reconnecting"))
        #expect(!states[firstPlaying...].contains("buffering"), "playout never stopped: \(states)")
        #expect(states.last == "playing")
        // A new encoder: nothing to splice; what the server never had is lost, once.
        let lost = result.lines.lines("audio_lost").compactMap { $0["ms"] as? Int }
        #expect(lost.count == 1)
        #expect((1_500...7_000).contains(lost.first ?? 0), "lost \(lost) ms")
        let attempts = result.lines.lines("reconnect_failed").compactMap { $0["reason"] as? String }
        #expect(
            attempts.contains { $0.contains(restarted == "server" ? "refused" : "404") },
            "each failed attempt says why: \(attempts)")
    }

    @Test func aFrozenServerIsSurvived() throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        let run = try PlayRun(
            root: Self.root,
            arguments: [
                server.url(mount: "/live.mp3"), "--delay", "4", "--for", "20",
                "--stall-timeout", "2", "--backoff-cap", "0.5",
            ])
        run.wait(until: 7)
        server.freeze(true)
        run.wait(until: 12)
        server.freeze(false)
        let result = run.finish()
        let states = result.lines.states
        let firstPlaying = try #require(states.firstIndex(of: "playing"))
        #expect(states[firstPlaying...].contains("reconnecting"), "the stall was noticed: \(states)")
        let reasons = result.lines.lines("state").compactMap { $0["reason"] as? String }
        #expect(reasons.contains { $0.contains("no data for 2000 ms") }, "\(reasons)")
        #expect(!states[firstPlaying...].contains("buffering"))
        #expect(states.last == "playing")
    }

    @Test func aMountWithoutSourceIsRetriedUntilItComes() throws {
        let server = try IcecastServer()
        let run = try PlayRun(
            root: Self.root,
            arguments: [
                server.url(mount: "/later.mp3"), "--delay", "1", "--for", "8",
                "--backoff-cap", "0.5",
            ])
        run.wait(until: 2)
        try server.startSource(mount: "/later.mp3")
        let result = run.finish()
        #expect(result.lines.states.contains("reconnecting"), "404 while the source is away")
        let reasons = result.lines.lines("state").compactMap { $0["reason"] as? String }
        #expect(reasons.contains { $0.contains("404") }, "the reason names the 404")
        #expect(
            result.lines.lines("ffmpeg").contains { ($0["message"] as? String)?.contains("404") == true },
            "FFmpeg's own words come through the log, not stderr")
        #expect(result.lines.states.last == "playing")
    }
}

/// The test servers themselves: each test must get a server of its own.
extension IcecastFaultTests {
    /// A server whose port another test's server took first (the race between choosing a
    /// free port and binding it) moves to a port of its own, instead of going on with the
    /// other's — which answers on that port until its test stops it.
    @Test func aServerWhosePortIsTakenMovesToAPortOfItsOwn() throws {
        let first = try IcecastServer()
        let second = try IcecastServer(port: first.port)
        #expect(second.port != first.port)
        let status = try ExternalTool.run(["curl", "-sf", "http://127.0.0.1:\(second.port)/status-json.xsl"])
        #expect(status.contains("\"location\":\"\(second.directory.lastPathComponent)\""), "\(status)")
    }
}
