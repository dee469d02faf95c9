import DelayboxConfig
import DelayboxTestSupport
import Foundation
import Testing

/// The stream client against a real icecast2 and real ffmpeg sources on loopback, with
/// real faults. These run in real time (seconds each) and one at a time.
@Suite(
    .serialized,
    .enabled(if: IcecastServer.isAvailable, "needs icecast2 and ffmpeg (deploy/setup-host.sh installs them)"),
    .timeLimit(.minutes(10)))
struct IcecastStreamTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let broadcast = root.appendingPathComponent("tools/delaybox-broadcast").path

    @Test(arguments: [false, true])
    func aLiveStreamPlaysDelayed(opus: Bool) throws {
        let server = try IcecastServer()
        let mount = opus ? "/live.opus" : "/live.mp3"
        try server.startSource(mount: mount, opus: opus)
        let directory = try ExternalTool.temporaryDirectory("play")
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = directory.appendingPathComponent("out.wav").path
        let run = try PlayRun(
            root: Self.root,
            arguments: [server.url(mount: mount), "--delay", "2", "--for", "6", "--output", "wav:\(wav)"])
        let result = run.finish()
        #expect(result.status == 0)
        #expect(result.lines.states.prefix(3) == ["connecting", "buffering", "playing"])
        let capture = try WavCapture(path: wav)
        // The programme stops at 6 s with a fade; after it the output writes silence while
        // the process shuts down — on a loaded machine long enough that a window counted
        // from the capture's end took in 0.1 s of it (836 crossings/s, once in make test).
        let end = min(capture.seconds, 6)
        #expect(abs(capture.crossingsPerSecond(from: end - 2.2, to: end - 0.2) - 880) < 20, "the 440 Hz tone, heard")
    }

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

    @Test func anEventSentByTheBroadcasterFiresInDelayedTime() throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        let run = try PlayRun(
            root: Self.root, arguments: [server.url(mount: "/live.mp3"), "--delay", "4", "--for", "11"])
        run.wait(until: 3)
        let sent = run.elapsed
        try server.broadcast(["muted", "Half-time"], mount: "/live.mp3", tool: Self.broadcast)
        let result = run.finish()
        let events = result.lines.lines("event")
        let muted = try #require(events.first { $0.kind == "muted" })
        #expect(muted.transition == "reached")
        // Carried at the next 16000-byte ICY boundary (up to 1 s later), heard 4 s after that.
        let fired = try #require(muted.t)
        #expect(fired >= sent + 4 - 0.3 && fired <= sent + 4 + 1.6, "sent at \(sent) s, fired at \(fired) s")
        #expect(
            events.contains {
                $0.kind == "title" && ($0.detail)?.contains("Half-time") == true
            })
    }

    /// Half-time, then a new title (the score) while still muted: a box that connects after
    /// it is sent that title as the stream's state, so it must still carry the muted tag or
    /// the box would play the commentary instead of its mute music. Once unmuted, a title
    /// carries the unmute, so a box that missed it still ends unmuted.
    @Test func aTitleSentWhileMutedKeepsABoxThatJoinsLaterMuted() throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        let events = { (run: PlayRun) -> [PlayLine] in run.finish().lines.lines("event") }
        // The mute states a box applied, in order: reached in playout, or by the first jump
        // to the delay (the state at connecting).
        let muteStates = { (events: [PlayLine]) -> [String] in
            events.filter { ["reached", "executedByJump"].contains($0.transition ?? "") }
                .compactMap { $0.kind }.filter { $0 == "muted" || $0 == "unmuted" }
        }
        let hasTitle = { (events: [PlayLine], text: String) in
            events.contains { $0.kind == "title" && ($0.detail)?.contains(text) == true }
        }
        try server.broadcast(["muted", "Half-time"], mount: "/live.mp3", tool: Self.broadcast)
        try server.waitForTitle(containing: "[delaybox:muted]", mount: "/live.mp3")
        try server.broadcast(["title", "Half-time: 2-1"], mount: "/live.mp3", tool: Self.broadcast)
        let joined = events(
            try PlayRun(root: Self.root, arguments: [server.url(mount: "/live.mp3"), "--delay", "2", "--for", "4"]))
        #expect(muteStates(joined).contains("muted") && hasTitle(joined, "Half-time: 2-1"), "\(joined)")

        try server.broadcast(["unmuted", "Second half"], mount: "/live.mp3", tool: Self.broadcast)
        try server.waitForTitle(containing: "[delaybox:unmuted]", mount: "/live.mp3")
        try server.broadcast(["title", "Second half: 2-2"], mount: "/live.mp3", tool: Self.broadcast)
        let later = events(
            try PlayRun(root: Self.root, arguments: [server.url(mount: "/live.mp3"), "--delay", "2", "--for", "4"]))
        // Icecast's burst may open with the half-time title (it was current at the burst's
        // start) and skip the unmute: the score's title says unmuted itself.
        #expect(muteStates(later).last != "muted" && hasTitle(later, "Second half: 2-2"), "\(later)")
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
        let stopped = run.elapsed
        server.stopSource(mount: "/live.mp3")
        if restarted == "server" { server.stop() }
        run.wait(until: 13)
        if restarted == "server" { try server.start() }
        let restarting = run.elapsed
        try server.startSource(mount: "/live.mp3")
        let back = run.elapsed
        let result = run.finish()
        let states = result.lines.states
        let firstPlaying = try #require(states.firstIndex(of: "playing"))
        #expect(states[firstPlaying...].contains("reconnecting"))
        #expect(!states[firstPlaying...].contains("buffering"), "playout never stopped: \(states)")
        #expect(states.last == "playing")
        // A new encoder: nothing to splice; what the server never had is lost, once: from
        // the stop to the new source's start (its first packets placed by their arrival).
        let lost = result.lines.lines("audio_lost").compactMap { $0.ms }
        let gapMs = { (to: Double) in Int64((to - stopped) * 1000) }
        #expect(lost.count == 1)
        #expect(
            (gapMs(restarting) - 500...gapMs(back) + 1_000).contains(lost.first ?? 0),
            "lost \(lost) ms; the source was away \(gapMs(restarting))-\(gapMs(back)) ms")
        let attempts = result.lines.lines("reconnect_failed").compactMap { $0.reason }
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
        let reasons = result.lines.lines("state").compactMap { $0.reason }
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
        let reasons = result.lines.lines("state").compactMap { $0.reason }
        #expect(reasons.contains { $0.contains("404") }, "the reason names the 404")
        #expect(
            result.lines.lines("ffmpeg").contains { ($0.message)?.contains("404") == true },
            "FFmpeg's own words come through the log, not stderr")
        #expect(result.lines.states.last == "playing")
    }
}

/// The test servers themselves: each test must get a server of its own.
extension IcecastStreamTests {
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
