import DelayboxTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `delaybox run` as systemd runs it: notifications on a real socket, real signals.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DaemonTests {
    static let root = CommandLineTests.root
    static let unit = root.appendingPathComponent("deploy/delaybox.service")

    /// A board config over the simulated host's, writing into the box's directory.
    static func board(extra: String = "") -> (URL) -> String {
        { directory in
            """
            extends: \(root.appendingPathComponent("board-configs/simulated-host.yaml").path)
            audio:
              device: wav:\(directory.appendingPathComponent("out.wav").path)
            \(extra)
            """
        }
    }

    /// The audio held, from `delayboxctl status`'s `available_delay_ms: N` line (ms).
    static func held(_ status: String) -> Int {
        status.split(separator: "\n").first { $0.hasPrefix("available_delay_ms: ") }.flatMap {
            Int($0.dropFirst("available_delay_ms: ".count))
        } ?? 0
    }

    /// Starts `delaybox run` in `directory` under a fake systemd: NOTIFY_SOCKET and a 200 ms
    /// watchdog, through bash with `prefix` first (a limit systemd would set).
    func start(
        in directory: URL, _ arguments: [String] = [], notify: NotifySocket, shell prefix: String = "",
        extra: String = ""
    ) throws -> BoxUnderTest {
        try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), in: directory, arguments: arguments,
            environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"], start: .shell(prefix: prefix),
            board: Self.board(extra: extra))
    }

    @Test func readyWatchdogAndSigtermFadeSaveAndExitWithinASecond() throws {
        let directory = try ExternalTool.temporaryDirectory("daemon")
        defer { try? FileManager.default.removeItem(at: directory) }
        let notify = try NotifySocket(directory: directory)
        let box = try start(in: directory, ["--delay", "7"], notify: notify)
        let ready = try #require(notify.collect(until: "READY=1", timeout: 10), "READY=1 once audio flows")
        #expect(ready.last?.message.contains("STATUS=") == true)
        // Watchdog pings every 100 ms (half of WATCHDOG_USEC) while healthy.
        var watchdog: [Double] = []
        while watchdog.count < 10, let next = notify.receive(timeout: 0.5) {
            if next.message == "WATCHDOG=1" { watchdog.append(next.at) }
        }
        #expect(watchdog.count == 10, "\(watchdog)")
        let intervals = zip(watchdog, watchdog.dropFirst()).map { $1 - $0 }
        #expect(intervals.allSatisfy { $0 > 0.05 && $0 < 0.3 }, "\(intervals)")

        let asked = Date()
        box.process.signal(SIGTERM)
        box.process.waitUntilExit()
        let took = Date().timeIntervalSince(asked)
        #expect(!box.process.diedOfSignal && box.process.terminationStatus == 0)
        #expect(took < 1, "exited \(took) s after SIGTERM")
        let saved = try String(contentsOf: box.stateFile, encoding: .utf8)
        #expect(saved.contains("\"delayMs\" : 7000"), "the delay is saved: \(saved)")
        #expect(box.log.contains("settings saved"))
    }

    @Test func sighupReloadsAndABrokenSiteFileIsReportedNotFatal() throws {
        let directory = try ExternalTool.temporaryDirectory("daemon-hup")
        defer { try? FileManager.default.removeItem(at: directory) }
        let notify = try NotifySocket(directory: directory)
        let site = directory.appendingPathComponent("site.conf")
        try "defaults:\n  delay_step: 250 ms\n".write(to: site, atomically: true, encoding: .utf8)
        let box = try start(in: directory, ["--site", site.path], notify: notify)
        #expect(notify.collect(until: "READY=1", timeout: 10) != nil)
        try "defaults:\n  delay_step: 500 ms\n".write(to: site, atomically: true, encoding: .utf8)
        box.process.signal(SIGHUP)
        let reloaded = notify.collect(until: "READY=1", timeout: 3)
        #expect(reloaded?.contains { $0.message == "RELOADING=1" } == true)
        try "defaults:\n  delay_stp: 500 ms\n".write(to: site, atomically: true, encoding: .utf8)
        box.process.signal(SIGHUP)
        #expect(notify.collect(until: "READY=1", timeout: 3) != nil)
        // Still the running box: it stops as one does, settings saved, status 0.
        box.process.signal(SIGTERM)
        box.process.waitUntilExit()
        #expect(
            !box.process.diedOfSignal && box.process.terminationStatus == 0,
            "a broken site file does not stop the box")
        let text = box.log
        #expect(text.contains("config reloaded: 1 channel(s), delay step 500 ms"), "\(text)")
        #expect(
            text.contains("unknown key 'defaults.delay_stp'; did you mean 'delay_step'?")
                && text.contains("site file ignored"), "\(text)")
    }

    /// The console's saved changes (`config.yaml` beside the state file) are laid over
    /// the site file; a broken one is left out with the reason, the site file still counts.
    @Test func theConsolesSavedChangesAreTheTopLayerAndABrokenOneIsLeftOut() throws {
        let directory = try ExternalTool.temporaryDirectory("daemon-layers")
        defer { try? FileManager.default.removeItem(at: directory) }
        let notify = try NotifySocket(directory: directory)
        let site = directory.appendingPathComponent("site.conf")
        try "defaults:\n  delay_step: 250 ms\n".write(to: site, atomically: true, encoding: .utf8)
        let saved = directory.appendingPathComponent("config.yaml")
        try "\"defaults\":\n  \"delay_step\": \"750 ms\"\n".write(to: saved, atomically: true, encoding: .utf8)
        let box = try start(in: directory, ["--site", site.path], notify: notify)
        #expect(notify.collect(until: "READY=1", timeout: 10) != nil)
        try "\"defaults\":\n  \"delay_step\": \"a while\"\n".write(to: saved, atomically: true, encoding: .utf8)
        box.process.signal(SIGHUP)
        #expect(notify.collect(until: "READY=1", timeout: 3) != nil)
        box.process.signal(SIGTERM)
        box.process.waitUntilExit()
        let text = box.log
        #expect(
            text.contains("config reloaded: 1 channel(s), delay step 250 ms"), "the site file still counts: \(text)")
        #expect(
            text.contains("config.yaml")
                && text.contains("console's saved changes ignored, playing with the board file, site file"), "\(text)")
    }

    /// The listener's delay, volume and channel, set through the control socket, are saved
    /// once the knob rests (2 s) without a stop: the process killed outright (as by a power
    /// cut) and started again comes back with all three.
    @Test func aRestartedApplianceComesBackWithItsDelayVolumeAndChannel() throws {
        let directory = try ExternalTool.temporaryDirectory("daemon-restart")
        defer { try? FileManager.default.removeItem(at: directory) }
        let notify = try NotifySocket(directory: directory)
        let box = try start(
            in: directory, notify: notify,
            extra: """
                channels:
                  - name: Demo
                    url: demo://commentary
                  - name: Second
                    url: demo://commentary?cycle=9
                """)
        let ctl = { (words: [String]) throws -> String in
            let outcome = try box.ctl(words)
            return outcome.output + outcome.errors
        }
        #expect(notify.collect(until: "READY=1", timeout: 10) != nil)
        #expect(
            Eventually.holds(within: 15) { (try? ctl(["status"])).map { Self.held($0) >= 1_700 } ?? false },
            "enough held for a 1.7 s delay")
        let set = try ctl(["delay", "1.7"])
        #expect(set.contains("delay_ms: 1700"), "\(set)")
        #expect(try ctl(["volume", "37"]).contains("volume: 37"))
        #expect(try ctl(["channel", "Second"]).contains("Second"), "a switch keeps the delay")
        // The knob rests: the settings are saved (2 s after the last change).
        let state = box.stateFile
        let savedAll = {
            (try? String(contentsOf: state, encoding: .utf8)).map {
                $0.contains("\"delayMs\" : 1700") && $0.contains("\"volume\" : 37") && $0.contains("Second")
            } ?? false
        }
        #expect(
            Eventually.holds(within: 10, savedAll),
            "saved: \((try? String(contentsOf: state, encoding: .utf8)) ?? "nothing")")
        box.process.kill()

        try box.startAgain()
        #expect(notify.collect(until: "READY=1", timeout: 10) != nil)
        let status = try ctl(["status"])
        #expect(
            status.contains("channel: Second") && status.contains("volume: 37") && status.contains("delay_ms: 1700"),
            "\(status)")
        let started = box.log
        #expect(started.contains("channel 'Second', delay 1700 ms"), "\(started)")
        box.stop()
    }

    /// A channel added to the board file and reloaded (SIGHUP) can be switched to at once;
    /// the panel's and the console's choices come from the lineup in force. (No waits: the
    /// playout thread answers a request and acts on it in the same period, so the next
    /// request already sees the switch.)
    @Test func aChannelAddedByAReloadCanBeSwitchedTo() throws {
        let directory = try ExternalTool.temporaryDirectory("daemon-lineup")
        defer { try? FileManager.default.removeItem(at: directory) }
        let notify = try NotifySocket(directory: directory)
        let box = try start(in: directory, notify: notify)
        let ctl = { (words: [String]) throws -> String in
            let outcome = try box.ctl(words)
            return outcome.output + outcome.errors
        }
        #expect(notify.collect(until: "READY=1", timeout: 10) != nil)
        try Self.board(
            extra:
                "channels:\n  - name: Demo\n    url: demo://commentary\n  - name: Second\n    url: demo://commentary?cycle=9\n"
        )(directory).write(to: box.boardFile, atomically: true, encoding: .utf8)
        box.process.signal(SIGHUP)
        #expect(notify.collect(until: "READY=1", timeout: 3) != nil)
        #expect(try ctl(["channel", "Second"]).contains("Second"))
        let status = try ctl(["status"])
        #expect(status.contains("channel: Second"), "\(status)")
        // The playing channel's URL set on the console: played from the new URL at once.
        #expect(try ctl(["config", "set", "channels.1.url", "demo://commentary?cycle=7"]).contains("result: ok"))
        box.process.signal(SIGTERM)
        box.process.waitUntilExit()
        let text = box.log
        #expect(text.contains("channel: Second (demo://commentary?cycle=7)"), "\(text)")
    }

    @Test func theWatchdogGoesUnfedWhenTheOutputFails() throws {
        let directory = try ExternalTool.temporaryDirectory("daemon-full")
        defer { try? FileManager.default.removeItem(at: directory) }
        let notify = try NotifySocket(directory: directory)
        // A 300 KB file size limit: the WAV output fails (EFBIG) after about 1.5 s.
        let box = try start(in: directory, notify: notify, shell: "ulimit -f 300; ")
        #expect(notify.collect(until: "READY=1", timeout: 10) != nil)
        var lastPing = 0.0, firstReceived = Double.infinity
        while let next = notify.receive(timeout: 1.5) {
            firstReceived = min(firstReceived, next.at)
            if next.message == "WATCHDOG=1" { lastPing = next.at }
            if next.at - firstReceived > 5 { break }
        }
        #expect(lastPing > 0, "fed while the output worked")
        let later = notify.messages(for: 1.5)
        #expect(
            !later.contains { $0.message == "WATCHDOG=1" }, "no pings once the output fails: \(later.map(\.message))")
        #expect(box.process.isRunning, "it does not crash: systemd decides")
        box.process.signal(SIGTERM)
        box.process.waitUntilExit()
        let text = box.log
        #expect(text.contains("audio output lost: cannot write") && text.contains("File too large"), "\(text)")
        #expect(text.contains("is down; the watchdog is no longer fed"), "\(text)")
    }

    @Test func aBoardWhoseGPIOChipIsMissingPlaysWithoutItsFrontPanel() throws {
        // The virtual board tests cover a real chip.
        guard !FileManager.default.fileExists(atPath: "/dev/gpiochip0") else { return }
        let directory = try ExternalTool.temporaryDirectory("daemon-gpio")
        defer { try? FileManager.default.removeItem(at: directory) }
        let notify = try NotifySocket(directory: directory)
        let box = try start(
            in: directory, notify: notify,
            extra: "gpio:\n  chip: gpiochip0\n  buttons:\n    play: { line: 17, press: play_pause }\n")
        #expect(notify.collect(until: "READY=1", timeout: 10) != nil, "it plays")
        box.process.signal(SIGTERM)
        box.process.waitUntilExit()
        let text = box.log
        #expect(
            text.contains("GPIO chip 'gpiochip0' not found") && text.contains("playing without the front panel"),
            "\(text)")
    }

    /// A channel on an https server whose certificate does not verify: the appliance says
    /// why in its own line (FFmpeg's reason, through its log), and nothing of FFmpeg's goes
    /// raw to stderr.
    @Test func anUntrustedCertificateIsNamedInTheAppliancesLog() throws {
        let directory = try ExternalTool.temporaryDirectory("daemon-tls")
        defer { try? FileManager.default.removeItem(at: directory) }
        try ExternalTool.encodeTone(
            frequency: 440, seconds: 2, sampleRate: 44_100, channels: 2,
            codecArguments: ["-c:a", "libmp3lame", "-b:a", "128k"],
            to: directory.appendingPathComponent("tone.mp3").path)
        let server = try StaticHTTPServer(directory: directory, selfSignedTLS: true)
        let notify = try NotifySocket(directory: directory)
        let box = try start(
            in: directory, ["--seconds", "4"], notify: notify,
            extra: "channels:\n  - name: Away\n    url: \(server.url("tone.mp3"))\n")
        box.process.waitUntilExit()
        let text = box.log
        let lines = text.split(separator: "\n")
        #expect(
            lines.contains {
                $0.hasPrefix("INFO delaybox.appliance: reconnect failed:")
                    && $0.contains("Peer certificate failed verification")
            }, "\(text)")
        #expect(!lines.contains { $0.hasPrefix("[") }, "FFmpeg's own lines raw on stderr: \(text)")
    }

    /// Issue 39: the exposure at most 1.5 (1.8 before: no capability and a user namespace
    /// of its own since).
    @Test func theUnitFileVerifiesAndItsExposureIsAtMostOneAndAHalf() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            Issue.record("systemd-analyze is missing (deploy/setup-host.sh installs systemd)")
            return
        }
        let directory = try ExternalTool.temporaryDirectory("unit")
        defer { try? FileManager.default.removeItem(at: directory) }
        // Verified with ExecStart pointing at the built binary (not installed here).
        let unit = directory.appendingPathComponent("delaybox.service")
        try String(contentsOf: Self.unit, encoding: .utf8)
            .replacingOccurrences(
                of: "/usr/bin/delaybox", with: BuiltProgram.url("delaybox", root: Self.root).path
            )
            .write(to: unit, atomically: true, encoding: .utf8)
        let verify = try ExternalTool.execute(URL(fileURLWithPath: "/usr/bin/systemd-analyze"), ["verify", unit.path])
        #expect(verify.status == 0 && verify.errors.isEmpty, "\(verify.errors)")
        let security = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/systemd-analyze"),
            ["security", "--offline=yes", "--no-pager", Self.unit.path])
        let line = try #require(security.output.split(separator: "\n").first { $0.contains("Overall exposure level") })
        let score = try #require(line.split(separator: " ").compactMap { Double($0) }.first, "\(line)")
        #expect(score <= 1.5, "\(line)")
        let text = try String(contentsOf: Self.unit, encoding: .utf8)
        for setting in [
            "Type=notify", "WatchdogSec=", "Restart=on-failure", "ProtectSystem=strict", "PrivateTmp=yes",
            "NoNewPrivileges=yes", "CapabilityBoundingSet=\n", "PrivateUsers=yes",
            "SupplementaryGroups=audio gpio dialout",
            "StateDirectory=delaybox", "ConfigurationDirectory=delaybox",
        ] {
            #expect(text.contains(setting), "\(setting)")
        }
    }
}
