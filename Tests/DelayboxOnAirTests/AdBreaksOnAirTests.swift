import DelayboxTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Ad breaks on a live Icecast as the listener hears them (issue 25: exactly once):
/// `delaybox run` mixes the ad over the ducked stream into a WAV file, where the source's
/// 440 Hz tone is gone for as long as a break is heard and the ad's chime (1046.5 Hz
/// notes) sounds. Whatever the connection does meanwhile — reconnects, a source restart, a
/// channel switched away and back, a box started during or after a break — each break
/// plays once, for its real length or what is left of it, and not past its end.
@Suite(
    .serialized,
    .enabled(if: IcecastServer.isAvailable, "needs icecast2 and ffmpeg (deploy/setup-host.sh installs them)"),
    .timeLimit(.minutes(10)))
struct AdBreaksOnAirTests {
    static let root = HeardDelayTests.root
    static let broadcast = HeardDelayTests.root.appendingPathComponent("tools/delaybox-broadcast").path
    /// Seconds a tone gap lasts beyond the break heard: the stream's tone falls below the
    /// threshold (half its power) 0.09 s into the ad's 300 ms duck and is back 0.21 s into
    /// its return.
    static let rampSeconds = 0.21 - 0.09
    static let window = Double(Goertzel.windowFrames) / 48_000

    /// The log's lines for a break of `seconds` taking effect (not those saying why not).
    static func played(_ log: String, seconds: Int) -> [Substring] {
        log.split(separator: "\n").filter {
            $0.contains("event: ad break \(seconds * 1_000) ms") && !$0.contains("not triggered")
        }
    }

    /// How far into its break an ad came in (s), from the line's "…, N ms into it"; 0 for
    /// one reached at its start.
    static func elapsed(_ line: Substring) -> Double {
        guard line.hasSuffix("ms into it"), let last = line.split(separator: ", ").last else { return 0 }
        return Double(Int(last.prefix { $0.isNumber }) ?? 0) / 1_000
    }

    /// Where the stream's 440 Hz tone is missing (s of the capture), for longer than 0.2 s.
    /// A placement corrected by a crossfaded jump (after a reconnect, a switch) crossfaded two
    /// phases of the tone and dipped below the threshold for a window; such jumps land in
    /// phase now (`JumpAlignment`). Without this filter the suite still saw single 50 ms dips
    /// outside the break while a deploy test loaded the machine: the playout thread (normal
    /// priority here) was late and the output ran out of rendered audio (its log: "audio
    /// thread ran out of rendered audio 1 time(s)", `stats` late_renders 1, in the run whose
    /// dip was at 6.30 s). A starved box, not the programme: the filter stays until the
    /// playout thread cannot starve (issue 43's notes).
    static func gaps(_ samples: [Int16]) -> [(start: Double, end: Double?)] {
        Goertzel.gaps(samples, hertz: 440).filter { ($0.end ?? .infinity) - $0.start > 0.2 }
    }

    /// How long the ad's chime (a 0.45 s note every 2 s) sounds between `start` and `end`
    /// (s of the capture).
    static func chime(_ samples: [Int16], from start: Double, to end: Double) -> Double {
        let powers = Goertzel.windowPowers(samples, hertz: 1_046.5)
        let range = min(Int(start / window), powers.count)..<min(Int(end / window), powers.count)
        return Double(powers[range].filter { $0 > 1e-4 }.count) * window
    }

    /// A box on a live MP3 mount (its source a 440 Hz tone) at 2 s delay for `seconds`,
    /// and a 6 s ad sent 4.5 s after it started (heard from about 6.5–7.5 s, by where the
    /// title's metadata block falls). The break begins clear of the moment the first
    /// connection's placement settles, 5 s after it connected: a correction then is a
    /// crossfaded jump, which dips the tone for a window, and next to the break's start
    /// that dip made the break look 0.15 s longer (6.3 s measured, the ad sent at 3 s).
    static func sixSecondBreak(running seconds: Int) throws -> (IcecastServer, OnAirAppliance) {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3")
        let box = try OnAirAppliance(
            root: root, channels: [("Live", server.url(mount: "/live.mp3"))], delay: 2, seconds: seconds)
        box.wait(until: 4.5)
        try server.broadcast(["ad", "6", "demo://ad", "Half-time ad"], mount: "/live.mp3", tool: broadcast)
        return (server, box)
    }

    /// The reported bug: Icecast resends the current title — still carrying the ad tag —
    /// to every new connection, so each network glitch replayed the ad. The listener's
    /// connection is killed during the break and after it, then again while muted: the
    /// break is heard once for its 6 s, and the box is still muted after the last drop.
    @Test func aBreakIsHeardOnceForItsLengthThoughTheListenerReconnectsDuringAndAfterIt() throws {
        let (server, box) = try Self.sixSecondBreak(running: 18)
        for moment in [7.0, 12.0] {  // inside the break, then after it
            box.wait(until: moment)
            #expect(try server.dropListeners(mount: "/live.mp3") == 1)
        }
        // "muted" only once the box is back and has been resent the ad's title: a reconnect
        // is retried after 250 ms, then 500 (a connection that ended within 10 s counts as
        // failed), and a "muted" sent before it opened was that connection's first title.
        // The resent title is known either way: as the connection's first title ("resent on
        // reconnecting"), or, when Icecast's first metadata block came before it, by the
        // start its tag says ("sent again") — both "already on the timeline".
        let known = "the break is already on the timeline"
        #expect(
            box.waitForLog(containing: known, count: 2, timeout: 5), "back after the second drop, the ad's title resent"
        )
        try server.broadcast(["muted", "Half-time"], mount: "/live.mp3", tool: Self.broadcast)
        box.wait(until: 14)
        #expect(try server.dropListeners(mount: "/live.mp3") == 1)
        let run = box.finish()
        #expect(run.status == 0, "\(run.log)")
        #expect(Self.played(run.log, seconds: 6).count == 1, "\(run.log)")
        #expect(run.log.components(separatedBy: known).count - 1 >= 2, "\(run.log)")
        #expect(run.log.contains("event: streamer muted reached"), "\(run.log)")
        #expect(!run.log.contains("audio lost"), "each reconnect spliced in place: \(run.log)")

        let samples = try box.programme()
        let gaps = Self.gaps(samples)
        // The break, then the mute to the end: no second break, no gap at a reconnect.
        #expect(gaps.count == 2 && gaps.last?.end == nil, "the 440 Hz tone's gaps (s): \(gaps)")
        let ad = try #require(gaps.first)
        let length = (ad.end ?? 0) - ad.start
        // 50 ms windows at both edges (6.15–6.2 s measured; 6.3 s while the break could
        // begin at the first placement's settling, see sixSecondBreak; 6.6–7.25 s while
        // the ad paused for every reconnect).
        #expect(abs(length - (6 + Self.rampSeconds)) < 0.15, "the tone ducked for \(length) s: \(run.log)")
        #expect(Self.chime(samples, from: ad.start, to: ad.end ?? 0) > 1, "the ad heard: its three notes")
        print("a 6 s break with two reconnects: the tone ducked for \(length) s")
    }

    /// The source stops during the break and a new one starts (Icecast forgets the title):
    /// the audio the server never had is lost, and the break still ends where it began
    /// plus its length, heard once.
    @Test func aBreakIsHeardForItsLengthThoughTheSourceRestartsDuringIt() throws {
        let (server, box) = try Self.sixSecondBreak(running: 15)
        box.wait(until: 6)
        server.stopSource(mount: "/live.mp3")
        box.wait(until: 6.5)
        try server.startSource(mount: "/live.mp3")
        let run = box.finish()
        #expect(run.status == 0, "\(run.log)")
        #expect(Self.played(run.log, seconds: 6).count == 1, "\(run.log)")
        #expect(run.log.contains("audio lost"), "a new encoder: what the server never had is lost: \(run.log)")

        let samples = try box.programme()
        let gaps = Self.gaps(samples)
        #expect(gaps.count == 1, "the 440 Hz tone's gaps (s): \(gaps)")
        let ad = try #require(gaps.first)
        let length = (ad.end ?? 0) - ad.start
        #expect(abs(length - (6 + Self.rampSeconds)) < 0.15, "the tone ducked for \(length) s: \(gaps); \(run.log)")
        print("a 6 s break with a source restart: the tone ducked for \(length) s")
    }

    /// The listener switches to another channel (880 Hz) 2 s into an 8 s break and back 2 s
    /// later: the box connects anew, learns from the tag when the break began and plays the
    /// ad on to the break's end by that start — give or take how far the live edge the box
    /// sees trails the source (MP3: 0.35–0.38 s). Away and back again after the break: none
    /// of it.
    @Test func aChannelSwitchedAwayAndBackDuringABreakPlaysTheRestAfterItNone() throws {
        let server = try IcecastServer()
        try server.startSource(mount: "/live.mp3", frequency: 440)
        try server.startSource(mount: "/other.mp3", frequency: 880)
        let box = try OnAirAppliance(
            root: Self.root,
            channels: [
                ("Live", server.url(mount: "/live.mp3")),
                ("Other", server.url(mount: "/other.mp3")),
            ],
            delay: 2, seconds: 21)
        box.wait(until: 3)
        let sent = Date()
        try server.broadcast(["ad", "8", "demo://ad", "Half-time ad"], mount: "/live.mp3", tool: Self.broadcast)
        for (moment, channel) in [(7.5, "Other"), (9.5, "Live"), (15.5, "Other"), (16.5, "Live")] {
            box.wait(until: moment)
            let switched = try box.ctl(["channel", channel])
            #expect(switched.status == 0, "\(switched.output)\(switched.errors)")
        }
        let run = box.finish()
        #expect(run.status == 0, "\(run.log)")
        let ads = Self.played(run.log, seconds: 8)
        #expect(ads.count == 2, "at its start, then its rest after the switch back: \(ads)")
        let rest = Self.elapsed(try #require(ads.last))
        #expect(rest > 2.5 && rest < 6, "the rest: from \(rest) s in")
        #expect(
            run.log.contains("not triggered: on air when the connection opened: over where playout is"), "\(run.log)")

        let samples = try box.programme()
        let gaps = Self.gaps(samples)
        // One gap from the break's start to its end, Other's 880 Hz inside it; then Other
        // again after the break, briefly.
        #expect(gaps.count == 2, "the 440 Hz tone's gaps (s): \(gaps)")
        let ad = try #require(gaps.first)
        // The break's end, by its start's clock: the stream is back (0.21 s into its ramp)
        // 8 s after the tag's start plus the delay, late by how far the box's live edge
        // trails the source. (The first hearing began where the title came, up to an ICY
        // interval — 1 s — after the start: the stream is back sooner than 8 s after it.)
        let back = try #require(OnAirAppliance.firstFrameHeard(in: run.log), "\(run.log)").addingTimeInterval(
            (ad.end ?? 0) - 0.21 - 2
        )
        .timeIntervalSince(sent)
        #expect(back > 8 - 0.25 && back < 8 + 0.6, "the break ended \(back) s after its start")
        print("an 8 s break, switched away and back: it ended \(back) s after its start")
        let other = try #require(Goertzel.longestRun(samples, hertz: 880, threshold: 1e-3))
        #expect(
            other.start > ad.start && other.start + other.length < (ad.end ?? 0),
            "Other inside the break: \(other), \(ad)")
        #expect(
            Self.chime(samples, from: other.start + other.length, to: ad.end ?? 0) > 0.3, "the rest of the ad heard")
    }

    /// A box that connects 3 s into an 8 s break (a start, a restart, a switch to the
    /// channel) learns from the tag when the break began and plays what is left of it:
    /// the ad from as far in as its playout is, and the stream back when the break ends.
    /// A box started after the break, the tag still in the title, plays none of it. On an
    /// MP3 mount the tag comes by the broadcaster's title update; on an Ogg one (Icecast
    /// takes no title updates there) in the source's own stream, as the title of its link.
    @Test(arguments: ["mp3", "ogg"])
    func aBoxThatJoinsDuringABreakPlaysWhatIsLeftOfIt(format: String) throws {
        let server = try IcecastServer()
        let mount = "/live.\(format)"
        let sent = Date()
        if format == "ogg" {
            let start = String(format: "%.3f", sent.timeIntervalSince1970)
            try server.startSource(mount: mount, opus: true, title: "Half-time ad [delaybox:ad@\(start) 8 demo://ad]")
        } else {
            try server.startSource(mount: mount)
            try server.broadcast(["ad", "8", "demo://ad", "Half-time ad"], mount: mount, tool: Self.broadcast)
            try server.waitForTitle(containing: "[delaybox:ad@", mount: mount)
        }
        Thread.sleep(until: sent.addingTimeInterval(3))  // the point: a box that joins 3 s into the break
        let box = try OnAirAppliance(
            root: Self.root, channels: [("Live", server.url(mount: mount))], delay: 2, seconds: 10)
        let joined = box.finish()
        #expect(joined.status == 0, "\(joined.log)")
        let ads = Self.played(joined.log, seconds: 8)
        #expect(ads.count == 1, "played once: \(ads)")
        let elapsed = Self.elapsed(try #require(ads.first, "\(ads)"))
        #expect(elapsed > 0, "joined into the break: \(ads)")
        let samples = try box.programme()
        let gaps = Self.gaps(samples)
        #expect(gaps.count == 1, "the 440 Hz tone's gaps (s): \(gaps)")
        let ad = try #require(gaps.first)
        let ducked = (ad.end ?? 0) - ad.start
        #expect(
            abs(ducked - (8 - elapsed + Self.rampSeconds)) < 0.15,
            "ducked for \(ducked) s; the break's rest was \(8 - elapsed) s")
        #expect(Self.chime(samples, from: ad.start, to: ad.end ?? 0) > 0.5, "the ad heard")
        // Where playout was when the ad came in: the delay in force behind live, by the
        // clock the broadcaster stamped the start with (the same machine's here). The box
        // places the break by the live edge it sees, which trails the source's audio by the
        // source's encoding and the server's lag, so it is placed that much late and
        // joined that much less far in (measured: MP3 0.35–0.38 s, Ogg/Opus 0.05 s early).
        let raised = joined.log.split(separator: "\n").last { $0.contains("(raisedToMinimum)") }
        let delay =
            Double(raised.flatMap { Int($0.split(separator: "delay: ").last?.prefix { $0.isNumber } ?? "") } ?? 2_000)
            / 1_000
        let expected = try #require(OnAirAppliance.firstFrameHeard(in: joined.log), "\(joined.log)").addingTimeInterval(
            ad.start - 0.09 - delay
        )
        .timeIntervalSince(sent)
        #expect(
            elapsed > expected - 0.6 && elapsed < expected + 0.25,
            "joined \(elapsed) s into the break; its start says \(expected) s")

        // The break is over where a box 2 s behind live would play it by 10 s after it began.
        Thread.sleep(until: sent.addingTimeInterval(11))  // the point: a box that joins after the break
        let later = try OnAirAppliance(
            root: Self.root, channels: [("Live", server.url(mount: mount))], delay: 2, seconds: 4
        ).finish()
        #expect(Self.played(later.log, seconds: 8).isEmpty, "\(later.log)")
        #expect(
            later.log.contains("not triggered: on air when the connection opened: over where playout is"),
            "\(later.log)")
    }

}
