import DelayboxEngine
import Testing

@testable import DelayboxApp

/// What a listener does to a whole appliance, and what the jack then plays, in virtual
/// time: pause and resume, a preset, a channel switch, a reload. The demo programme's
/// pips (one each stream second) show the delay at the jack: a pip is heard the delay
/// (plus the network's latency) after the channel started, modulo a second, so a delay
/// changed by 250 ms moves every pip by 250 ms.
@Suite(.timeLimit(.minutes(10))) struct ApplianceScenarioTests {
    static func board(extraChannel: String = "") -> String {
        """
        board:
          name: Virtual
          hat: none
        audio:
          device: null
          rate: 48000
          format: S16_LE
          period: 20 ms
          periods: 4
        channels:
          - name: Home
            url: demo://commentary?cycle=3600
          - name: Away
            url: demo://commentary?cycle=1800
        \(extraChannel)
        defaults:
          initial_buffer: 1 s
          max_delay: 5 min
          delay: 3 s
          delay_step: 100 ms
          volume: 100
          feedback_sounds: false
        """
    }

    /// Where in its second each pip heard from `from` to `to` falls, counted from
    /// `origin` (when the channel started), ms.
    static func pipPhases(_ box: VirtualAppliance, from: Instant, to: Instant, origin: Instant) -> [Int64] {
        box.jack.pips(from: from, to: to).map { ($0.milliseconds(since: origin) % 1_000 + 1_000) % 1_000 }
    }

    /// The one phase of the pips from `from` to `to` (at least two, all within 2 ms).
    static func phase(_ box: VirtualAppliance, from: Instant, to: Instant, origin: Instant) throws -> Int64 {
        let phases = pipPhases(box, from: from, to: to, origin: origin)
        try #require(phases.count >= 2, "pips heard: \(phases)")
        #expect(phases.max()! - phases.min()! <= 2, "\(phases)")
        return phases[0]
    }

    /// `a - b` on a circle of a second, in -500…499 ms.
    static func shift(_ a: Int64, _ b: Int64) -> Int64 { ((a - b) % 1_000 + 1_500) % 1_000 - 500 }

    @Test func pauseHoldsTheProgrammeAndResumePlaysOnFromWhereItWasHeld() throws {
        let box = try VirtualAppliance(board: Self.board())
        try box.run(seconds: 7)
        #expect(try box.status("state") == "playing")
        let before = try Self.phase(box, from: box.start.advanced(byMs: 4_500), to: box.clock.now(), origin: box.start)
        let paused = box.clock.now()
        #expect(try box.console("pause").contains("state: paused"))
        try box.run(seconds: 2.25)
        let resumed = box.clock.now()
        #expect(try box.console("resume").contains("result: ok"))
        // Silent from 0.3 s after the pause (what the ring and the device held, and the
        // fade-out) until the resume.
        #expect(box.jack.peak(from: paused.advanced(byMs: 300), to: resumed) == 0)
        try box.run(seconds: 3)
        // The programme is held where it was rendered to, so the delay grows by the pause
        // as the render position saw it: its length within the ring's 120 ms. The jack
        // hears exactly that delay.
        let held = resumed.milliseconds(since: paused)
        let grown = try #require(try box.status("delay_ms").flatMap { Int64($0) }) - 3_000
        #expect(abs(grown - held) <= 120, "the delay grew \(grown) ms in a pause of \(held) ms")
        let after = try Self.phase(box, from: resumed.advanced(byMs: 500), to: box.clock.now(), origin: box.start)
        #expect(
            abs(Self.shift(after, before) - Self.shift(grown % 1_000, 0)) <= 2,
            "pips moved \(Self.shift(after, before)) ms for a delay \(grown) ms longer")
    }

    @Test func aRecalledPresetIsHeardAtItsDelay() throws {
        let box = try VirtualAppliance(board: Self.board())
        try box.run(seconds: 8)
        let atThree = try Self.phase(box, from: box.start.advanced(byMs: 5_000), to: box.clock.now(), origin: box.start)
        #expect(try box.console("preset save 2").contains("result: ok"))
        #expect(try box.console("delay 4.25").contains("delay_ms: 4250"))
        let longer = box.clock.now()
        try box.run(seconds: 3)
        let atLonger = try Self.phase(box, from: longer.advanced(byMs: 500), to: box.clock.now(), origin: box.start)
        #expect(abs(Self.shift(atLonger, atThree) - 250) <= 2, "4.25 s is heard 250 ms (mod 1 s) after 3 s")
        #expect(try box.console("preset 2").contains("delay_ms: 3000"))
        let recalled = box.clock.now()
        try box.run(seconds: 3)
        let atRecalled = try Self.phase(box, from: recalled.advanced(byMs: 500), to: box.clock.now(), origin: box.start)
        #expect(abs(Self.shift(atRecalled, atThree)) <= 2, "the preset's 3 s again: \(atRecalled) vs \(atThree)")
        #expect(try box.console("preset 4").contains("refused: preset 4 is empty"))
    }

    @Test func aSwitchedChannelIsHeardAtTheSameDelayOnceItHasFilledIt() throws {
        let box = try VirtualAppliance(board: Self.board())
        try box.run(seconds: 6)
        let home = try Self.phase(box, from: box.start.advanced(byMs: 3_500), to: box.clock.now(), origin: box.start)
        let switched = box.clock.now()
        #expect(try box.console("channel away") == "result: ok\nchannel: Away")
        #expect(try box.status("channel") == "Away")
        try box.run(seconds: 6)
        #expect(try box.status("delay_ms") == "3000")
        // Away starts from nothing: silent until its buffer holds the 3 s (after the
        // fade-out and what the device still held of Home), then heard at that delay.
        #expect(box.jack.peak(from: switched.advanced(byMs: 200), to: switched.advanced(byMs: 2_900)) == 0)
        let away = try Self.phase(box, from: switched.advanced(byMs: 3_500), to: box.clock.now(), origin: switched)
        #expect(
            abs(Self.shift(away, home)) <= 2,
            "Away's pips \(away) ms into the second since the switch, Home's \(home) since the start")
        // The console's next channel and the lineup agree: after Away, Home.
        #expect(try box.console("channel next") == "result: ok\nchannel: Home")
        #expect(
            try box.console("channel Studio").hasPrefix("error: no channel named 'Studio'; the channels: Home, Away"))
    }

    /// What the listener set is one state, whichever door set it; the playout logs what
    /// each wake-up's commands changed in it, a line per change.
    @Test func theRunningStateIsWhatTheCommandsSetAndSaysWhatChanged() throws {
        let box = try VirtualAppliance(board: Self.board())
        try box.run(seconds: 5)
        let before = box.playout.state(at: box.clock.now())
        #expect(
            (before.channel, before.delay.milliseconds, before.volume, before.muted, before.paused, before.adsEnabled)
                == (
                    "Home", 3_000, 100, false, false, true
                ))
        for line in ["delay 4", "volume 40", "mute", "pause", "preset save 2", "ads off"] {
            #expect(!(try box.console(line)).hasPrefix("error"), "\(line)")
        }
        let after = box.playout.state(at: box.clock.now())
        #expect(
            after.changes(since: before) == [
                "delay: 3000 → 4000 ms", "volume: 100 → 40", "muted", "paused", "ads: off", "preset 2 saved: 4000 ms",
            ])
        #expect(try box.status("volume") == "40" && box.status("muted") == "true" && box.status("state") == "paused")
        #expect(try box.console("channel away").contains("Away"))
        #expect(box.playout.state(at: box.clock.now()).channel == "Away")
        #expect(before.changes(since: before).isEmpty)
    }

    @Test func aReloadedBoardFileAddsAChannelAndABrokenOneChangesNothing() throws {
        let box = try VirtualAppliance(board: Self.board())
        try box.run(seconds: 2)
        try box.reload(board: Self.board(extraChannel: "  - name: Studio\n    url: demo://commentary?cycle=900\n"))
        #expect(try box.console("channel Studio") == "result: ok\nchannel: Studio")
        try box.run(seconds: 1)
        #expect(try box.status("channel") == "Studio")
        try box.reload(board: "board: [not a board")
        #expect(
            try box.console("channel list").contains("* Studio  demo://commentary?cycle=900"), "the running config kept"
        )
        // The playing channel redefined on the console: it plays its new URL at once.
        #expect(try box.console("config set channels.2.url demo://commentary?cycle=600").contains("result: ok"))
        #expect(box.playout.session.channel.streamURL == "demo://commentary?cycle=600")
        #expect(try box.status("channel") == "Studio")
    }
}

extension Instant {
    func advanced(byMs milliseconds: Int64) -> Instant { advanced(byNanoseconds: milliseconds * 1_000_000) }
}
