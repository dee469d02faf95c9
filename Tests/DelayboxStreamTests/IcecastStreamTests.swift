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
        let muted = try #require(events.first { $0["kind"] as? String == "muted" })
        #expect(muted["transition"] as? String == "reached")
        // Carried at the next 16000-byte ICY boundary (up to 1 s later), heard 4 s after that.
        let fired = try #require(muted["t"] as? Double)
        #expect(fired >= sent + 4 - 0.3 && fired <= sent + 4 + 1.6, "sent at \(sent) s, fired at \(fired) s")
        #expect(
            events.contains {
                $0["kind"] as? String == "title" && ($0["detail"] as? String)?.contains("Half-time") == true
            })
    }

    /// Half-time, then a new title (the score) while still muted: a box that connects after
    /// it is sent that title as the stream's state, so it must still carry the muted tag or
    /// the box would play the commentary instead of its mute music. Once unmuted, a title
    /// carries the unmute, so a box that missed it still ends unmuted.
    @Test func aTitleSentWhileMutedKeepsABoxThatJoinsLaterMuted() throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        let events = { (run: PlayRun) -> [[String: Any]] in run.finish().lines.lines("event") }
        // The mute states a box applied, in order: reached in playout, or by the first jump
        // to the delay (the state at connecting).
        let muteStates = { (events: [[String: Any]]) -> [String] in
            events.filter { ["reached", "executedByJump"].contains($0["transition"] as? String ?? "") }
                .compactMap { $0["kind"] as? String }.filter { $0 == "muted" || $0 == "unmuted" }
        }
        let hasTitle = { (events: [[String: Any]], text: String) in
            events.contains { $0["kind"] as? String == "title" && ($0["detail"] as? String)?.contains(text) == true }
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
}
