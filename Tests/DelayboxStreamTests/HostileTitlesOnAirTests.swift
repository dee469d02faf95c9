import DelayboxEngine
import DelayboxTestSupport
import Foundation
import Testing

/// Titles from a stranger on a live Icecast (issue 39): a title is sent by whoever has the
/// mount's password or sits between the station and the box, and Icecast resends the
/// current one to every new listener — a title that crashed the box crashed it again at
/// every restart. The box keeps playing, says once per connection what it refused and
/// why, opens no local file and no other protocol or host, and a box started while such a
/// title stands connects and plays.
@Suite(
    .serialized,
    .enabled(if: IcecastServer.isAvailable, "needs icecast2 and ffmpeg (deploy/setup-host.sh installs them)"),
    .timeLimit(.minutes(10)))
struct HostileTitlesOnAirTests {
    static let root = IcecastStreamTests.root
    /// The boxes' output period: 100 ms (a 400 ms ring). This suite is about titles; in
    /// `make test` the host suites run beside it and slow it five-fold (117 s against 23 s
    /// alone), and twice the restarted box's last seconds had a gap of the tone (50 ms at
    /// 5.35 s; 0.55 s at 5.45 s) with the default 80 ms ring — starvation of its playout
    /// thread by the load is the likely cause (not reproduced beside three busy loops; the
    /// failure message now carries the box's log, where starvation says "audio thread ran
    /// out of rendered audio"). A later 50 ms gap (3.80 s, CI23) was not starvation: a box
    /// started under load places the burst late and corrects it with a jump, whose
    /// crossfade cancelled the tone in opposite phase — such jumps land in phase now
    /// (`JumpAlignment`, `CorrectionJumpTests`).
    static let period = TimeAmount.milliseconds(100)

    /// The titles, each with what its refusal says. The first three trapped the box (an
    /// integer conversion of 1e19 ms, of 1e300 s, and 2e17 ms in frames); the next ones
    /// had FFmpeg open a local file, a relative path, a pipe and a TCP connection.
    static func titles(clipHost: String) -> [(title: String, refusals: [String])] {
        let ad = "http://\(clipHost)/ad.mp3"
        return [
            ("Big [delaybox:ad 1e16 \(ad)]", ["ad break length '1e16' s is outside 1 s to 15 min"]),
            ("Start [delaybox:ad@1e300 5 \(ad)]", ["ad break start '1e300' is not a Unix time"]),
            ("Frames [delaybox:ad 2e14 \(ad)]", ["ad break length '2e14' s is outside 1 s to 15 min"]),
            (
                "Locals [delaybox:ad 5 file:///etc/shadow] [delaybox:ad 1 x] [delaybox:ad 5 pipe:0] [delaybox:ad 5 tcp://\(clipHost)/]",
                [
                    "'file:///etc/shadow' is not http or https", "'x' is not http or https",
                    "'pipe:0' is not http or https",
                    "'tcp://\(clipHost)/' is not http or https",
                ]
            ),
            (
                "Elsewhere [delaybox:ad 5 http://192.0.2.7/ad.mp3] [delaybox:ad 1e-300 demo://ad] [delaybox:ad nan demo://ad]",
                [
                    "clip host '192.0.2.7' is not the stream's", "length '1e-300' s is outside",
                    "length 'nan' s is outside",
                ]
            ),
        ]
    }

    /// Every title in turn to a playing box, then a box started while the last of them and
    /// the crashing ones stand together.
    @Test func hostileTitlesAreRefusedOnceAndTheBoxPlaysOnAndStartsUnderThem() throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        let titles = Self.titles(clipHost: "127.0.0.1:\(server.port)")
        let box = try OnAirAppliance(
            root: Self.root, channels: [("Live", server.url(mount: "/live.mp3"))], delay: 1, seconds: 16,
            period: Self.period)
        #expect(box.waitForLog(containing: "connected: mp3"), "the box connected")
        let connected = Date().timeIntervalSince(box.started)
        // Icecast sends a listener the title current at each metadata block (a second of
        // audio here): 1.5 s apart, each title reaches the box.
        for (index, entry) in titles.enumerated() {
            box.wait(until: connected + 1 + 1.5 * Double(index))
            try server.setTitle(entry.title, mount: "/live.mp3")
        }
        let run = box.finish()
        #expect(run.status == 0, "the box ran to its end: \(run.log.suffix(3_000))")
        Self.expectRefusedOnce(titles.flatMap(\.refusals), in: run.log)
        #expect(run.log.contains("title 'Elsewhere'"), "the rest of a title counts: \(run.log.suffix(3_000))")
        Self.expectTone(in: try box.programme(), seconds: 16, log: run.log)

        // A restart while the worst of them stands: Icecast sends it at connecting.
        let tags = titles.prefix(4).map { $0.title.drop { $0 != "[" } }
        try server.setTitle("Under attack " + tags.joined(separator: " "), mount: "/live.mp3")
        try server.waitForTitle(containing: "file:///etc/shadow", mount: "/live.mp3")
        let restarted = try OnAirAppliance(
            root: Self.root, channels: [("Live", server.url(mount: "/live.mp3"))], delay: 1, seconds: 6,
            period: Self.period)
        let second = restarted.finish()
        #expect(second.status == 0, "a box started under the title runs: \(second.log.suffix(3_000))")
        #expect(second.log.contains("title 'Under attack'"), "\(second.log.suffix(3_000))")
        Self.expectRefusedOnce(titles.prefix(4).flatMap(\.refusals), in: second.log)
        Self.expectTone(in: try restarted.programme(), seconds: 6, log: second.log)
    }

    /// Each refusal in `log` once (one connection), and nothing opened for it.
    static func expectRefusedOnce(_ refusals: [String], in log: String) {
        let lines = log.split(separator: "\n").filter { $0.contains("refused from the stream's title") }
        for refusal in refusals {
            #expect(lines.filter { $0.contains(refusal) }.count == 1, "'\(refusal)' said once: \(lines)")
        }
        #expect(
            !log.contains("not usable audio") && !log.contains("cannot fetch"),
            "nothing fetched or opened: \(log.suffix(3_000))")
        #expect(!log.contains("Illegal instruction") && !log.contains("Fatal error"))
    }

    /// The source's 440 Hz tone plays through the box's last seconds.
    static func expectTone(in samples: [Int16], seconds: Int, log: String) {
        let gaps = Goertzel.gaps(samples, hertz: 440).filter { ($0.end ?? .infinity) > Double(seconds) - 3 }
        #expect(gaps.isEmpty, "the tone in the last 3 s: gaps \(gaps); the box said: \(log.suffix(2_500))")
    }
}
