import DelayboxAnswers
import DelayboxApp
import DelayboxAudio
import DelayboxDoors
import DelayboxPlatform
import DelayboxSimulation
import DelayboxTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `delayboxctl` against a running `delaybox run` through its control socket.
@Suite(.serialized, .timeLimit(.minutes(10))) struct DelayboxCtlTests {
    static let root = CommandLineTests.root

    func ctl(_ arguments: [String], socket: String, input: String? = nil) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(
            BuiltProgram.url("delayboxctl", root: Self.root), arguments + ["--socket", socket], input: input
        )
    }

    /// - Parameters:
    ///   - runtimeDirectory: the service's runtime directory, as systemd gives it
    ///     (`RUNTIME_DIRECTORY`: where `update` leaves its request); nil: none, as on a host.
    ///   - hatProduct: where a HAT's EEPROM names its product (the device tree's file).
    func startAppliance(in directory: URL, runtimeDirectory: URL? = nil, hatProduct: URL? = nil) throws
        -> BoxUnderTest
    {
        var environment: [String: String] = [:]
        environment["RUNTIME_DIRECTORY"] = runtimeDirectory?.path
        environment["DELAYBOX_HAT_PRODUCT"] = hatProduct?.path
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), in: directory, arguments: ["--seconds", "30"],
            environment: environment
        ) { _ in "extends: \(Self.root.appendingPathComponent("board-configs/simulated-host.yaml").path)\n" }
        try box.waitForSocket()
        return box
    }

    @Test func statusDelayAndExitCodes() throws {
        let directory = try ExternalTool.temporaryDirectory("ctl")
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("control.sock").path
        let box = try startAppliance(in: directory)
        defer { box.process.stop(within: 10) }
        let noUpdater = try ctl(["update"], socket: socket)
        #expect(
            noUpdater.status == 1 && noUpdater.errors.contains("not installed from the package"), "\(noUpdater.errors)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: socket)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "only the service user may talk to it: \(String(mode, radix: 8))")

        let status = try ctl(["status", "--json"], socket: socket)
        #expect(status.status == 0)
        // The type the console answers with: every field it must have is there.
        let answer = try JSONDecoder().decode(StatusAnswer.self, from: Data(status.output.utf8))
        #expect(
            answer.channel == "Demo" && answer.volume == 50 && answer.page?.hasSuffix(".local:8080/") == true,
            "\(status.output)")
        // And by number, as this machine's interfaces give it (issue 60).
        #expect(
            answer.pageByNumber == PageLinks.link(port: 8080, addresses: SystemFigures.read().addresses),
            "\(status.output)")

        let held = {
            (try? ctl(["status", "--json"], socket: socket)).flatMap {
                try? JSONDecoder().decode(StatusAnswer.self, from: Data($0.output.utf8))
            }?.availableDelay.milliseconds ?? 0
        }
        #expect(Eventually.holds(within: 15) { held() >= 2_000 }, "enough audio held for a 2 s delay: \(held()) ms")
        let set = try ctl(["delay", "2"], socket: socket)
        #expect(set.status == 0 && set.output.contains("delay_ms: 2000"), "\(set.output)\(set.errors)")
        #expect(try ctl(["delay", "soon"], socket: socket).status == 2, "a bad argument")
        // As users type them: the socket before the subcommand, a negative adjustment.
        let lower = try ExternalTool.execute(
            BuiltProgram.url("delayboxctl", root: Self.root),
            ["--socket", socket, "delay", "-0.5"])
        #expect(lower.status == 0 && lower.output.contains("delay_ms: 1500"), "\(lower.output)\(lower.errors)")
        // More than is held: reached by waiting, and the answer says when (issue 26).
        let target = try ctl(["delay", "60"], socket: socket)
        #expect(
            target.status == 0 && target.output.contains("result: reaching 60.0 s in ")
                && target.output.contains("building_delay_ms: "),
            "\(target.output)\(target.errors)")
        let building = try ctl(["status"], socket: socket)
        #expect(
            building.output.contains("state: buffering") && building.output.contains("building_delay_ms: "),
            "\(building.output)")
        #expect(try ctl(["delay", "1.5"], socket: socket).output.contains("delay_ms: 1500"))
        let quieter = try ctl(["volume", "-5"], socket: socket)
        #expect(quieter.status == 0 && quieter.output.contains("volume: "), "\(quieter.output)\(quieter.errors)")
        let refused = try ctl(["preset", "4"], socket: socket)
        #expect(refused.status == 1 && refused.errors.contains("preset 4 is empty"), "refused")
        #expect(try ctl(["preset", "--save", "4"], socket: socket).status == 0)
        #expect(try ctl(["preset", "4"], socket: socket).status == 0, "saved, then recalled")
        #expect(try ctl(["preset", "12"], socket: socket).status == 64, "checked before asking")

        // The output's and the process's own figures (the WAV output never underruns).
        let stats = try ctl(["stats", "--json"], socket: socket)
        let figures = try JSONDecoder().decode(StatsAnswer.self, from: Data(stats.output.utf8))
        #expect(
            figures.xruns == 0 && figures.lateRenders == 0 && figures.deviceLosses == 0, "\(stats.output)")
        #expect(
            abs(figures.driftPpm) < 1_000,
            "a WAV output paced by the system clock hardly drifts: \(figures.driftPpm) ppm")
        #expect(figures.cpuS > 0 && figures.cpuS < 30, "CPU seconds so far: \(figures.cpuS)")
        #expect(figures.rssMb > 5 && figures.rssMb < 500, "resident MB: \(figures.rssMb)")
        // make test runs as root: the simulated board's threads at the board's priorities.
        if getuid() == 0 {
            #expect(figures.audioThread == "fifo 50" && figures.playoutThread == "fifo 40", "\(stats.output)")
        }
    }

    @Test func adsLogConfigAndChannelFromTheShell() throws {
        let directory = try ExternalTool.temporaryDirectory("ctl-more")
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("control.sock").path
        let runtime = directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        // A HAT that names itself, as the Pi's firmware gives its EEPROM's product.
        let hat = directory.appendingPathComponent("product")
        try Data("HiFiBerry DAC+ Pro\0".utf8).write(to: hat)
        let box = try startAppliance(in: directory, runtimeDirectory: runtime, hatProduct: hat)
        defer { box.process.stop(within: 10) }

        // `update` leaves the request the package's delaybox-update.path waits for.
        let update = try ctl(["update"], socket: socket)
        #expect(update.status == 0 && update.output.contains("update: asked"), "\(update.output)\(update.errors)")
        let request = runtime.appendingPathComponent("update-request")
        #expect(try String(contentsOf: request, encoding: .utf8) == "", "the newest")
        let pinned = try ctl(["update", "1.4.0-1~deb13"], socket: socket)
        #expect(pinned.output.contains("update: asked for 1.4.0-1~deb13"), "\(pinned.output)\(pinned.errors)")
        #expect(try String(contentsOf: request, encoding: .utf8) == "1.4.0-1~deb13\n", "exactly that release")
        let hostile = try ctl(["update", "1;reboot"], socket: socket)
        #expect(
            hostile.status != 0 && (hostile.output + hostile.errors).contains("is not a release's version"),
            "\(hostile.output)\(hostile.errors)")
        #expect(try String(contentsOf: request, encoding: .utf8) == "1.4.0-1~deb13\n")

        // The board: the shipped ones listed, the one running marked, the HAT's proposed;
        // `board use` leaves root's helper the name of a shipped board, and nothing else.
        let list = try ctl(["board", "list"], socket: socket)
        #expect(list.output.contains("\n  pi4-hifiberry-dacplus  "), "\(list.output)\(list.errors)")
        #expect(list.output.contains("* simulated-host  "), "\(list.output)")
        #expect(list.output.hasSuffix("the HAT says it is 'HiFiBerry DAC+ Pro'\n"), "\(list.output)")
        let listed = try JSONDecoder().decode(
            BoardListAnswer.self, from: Data(try ctl(["board", "list", "--json"], socket: socket).output.utf8))
        #expect(listed.proposed == ["pi4-hifiberry-dacplus"] && listed.hatSays == "HiFiBerry DAC+ Pro", "\(listed)")
        #expect(!listed.boards.contains { $0.name == "base" }, "a base is not a board")
        let chosen = try ctl(["board", "use", "pi4-hifiberry-dacplus"], socket: socket)
        #expect(
            chosen.status == 0 && chosen.output.contains("board: asked for pi4-hifiberry-dacplus")
                && chosen.output.contains("config.txt lines take a reboot"), "\(chosen.output)\(chosen.errors)")
        let boardRequest = runtime.appendingPathComponent("board-request")
        #expect(try String(contentsOf: boardRequest, encoding: .utf8) == "pi4-hifiberry-dacplus\n")
        let noSuchBoard = try ctl(["board", "use", "pi9-nothing"], socket: socket)
        #expect(
            noSuchBoard.status == 1 && noSuchBoard.errors.contains("no board 'pi9-nothing'; there are: "),
            "\(noSuchBoard.errors)")
        #expect(try ctl(["board", "use", "../shadow"], socket: socket).status != 0)
        #expect(try String(contentsOf: boardRequest, encoding: .utf8) == "pi4-hifiberry-dacplus\n", "left as it was")

        let off = try ctl(["ads", "off"], socket: socket)
        #expect(off.status == 0 && off.output.contains("result: ok"), "\(off.output)\(off.errors)")
        #expect(try ctl(["ads"], socket: socket).output.contains("ads: off"), "it stays set")
        #expect(try ctl(["ads", "maybe"], socket: socket).status == 64, "checked before asking")
        #expect(try ctl(["log", "level", "warning"], socket: socket).output.contains("log_level: warning"))
        let tail = try ctl(["log", "tail", "3", "--json"], socket: socket)
        let lines =
            try #require(try JSONSerialization.jsonObject(with: Data(tail.output.utf8)) as? [String: Any])["lines"]
            as? [String]
        #expect(lines != nil && lines!.count <= 3, "\(tail.output)")
        #expect(try ctl(["config"], socket: socket).output.contains("board: Simulated host"))
        let device = try ctl(["config", "get", "audio.device"], socket: socket)
        #expect(
            device.output.contains("value: default") && device.output.contains("simulated-host.yaml:11"),
            "\(device.output)")
        let missing = try ctl(["config", "get", "audio.volume"], socket: socket)
        #expect(
            missing.status == 1 && missing.errors.contains("no 'volume' in 'audio'; there: {device, fallback"),
            "\(missing.errors)")
        #expect(
            try ctl(["config", "get", "channels.0.url"], socket: socket).output.contains("value: demo://commentary"))
        // Set live, checked, saved beside the state file, read back from there.
        #expect(
            try ctl(["config", "set", "defaults.delay_step", "250", "ms"], socket: socket).output.contains(
                "value: 250 ms"))
        let live = try ctl(["config", "get", "defaults.delay_step"], socket: socket)
        #expect(live.output.contains("value: 250 ms") && live.output.contains("from: config set"), "\(live.output)")
        let tooBig = try ctl(["config", "set", "defaults.delay_step", "3", "h"], socket: socket)
        #expect(tooBig.status == 1 && tooBig.errors.contains("delay_step"), "\(tooBig.errors)")
        let unknown = try ctl(["config", "set", "audio.colour", "red"], socket: socket)
        #expect(unknown.status == 1 && unknown.errors.contains("colour"), "\(unknown.errors)")
        #expect(try ctl(["config", "save"], socket: socket).output.contains("config.yaml"))
        let saved = try ctl(["config", "get", "defaults.delay_step"], socket: socket)
        #expect(saved.output.contains("value: 250 ms") && saved.output.contains("config.yaml:"), "\(saved.output)")
        #expect(
            try String(contentsOf: directory.appendingPathComponent("config.yaml"), encoding: .utf8).contains(
                "\"delay_step\": \"250 ms\""))
        #expect(try ctl(["config", "save"], socket: socket).status == 1, "nothing left to save")
        let gpio = try ctl(["gpio"], socket: socket)
        #expect(
            gpio.status == 1 && gpio.errors.contains("no buttons or encoder"),
            "the simulated host has none: \(gpio.errors)")
        let switched = try ctl(["channel", "Demo"], socket: socket)
        #expect(
            switched.status == 0 && switched.output.contains("channel: Demo"), "\(switched.output)\(switched.errors)")
        let nowhere = try ctl(["channel", "Nowhere FM"], socket: socket)
        #expect(
            nowhere.status == 1 && nowhere.errors.contains("no channel named 'Nowhere FM'; the channels: Demo"),
            "refused, saying which there are: \(nowhere.errors)")
        // A station added from its link, live; a file or another protocol is not a station.
        let added = try ctl(["channel", "add", "Club", "Radio", "https://radio.example/club.pls"], socket: socket)
        #expect(added.status == 0 && added.output.contains("channel: Club Radio"), "\(added.output)\(added.errors)")
        #expect(
            try ctl(["channel", "list"], socket: socket).output.contains("Club Radio  https://radio.example/club.pls"))
        for url in ["file:///etc/shadow", "pipe:0", "tcp://10.0.0.1:80"] {
            let refused = try ctl(["channel", "add", "Evil", url], socket: socket)
            #expect(
                refused.status == 1 && refused.errors.contains("http:// or https:// link"), "\(url): \(refused.errors)")
        }
        let twice = try ctl(["channel", "add", "Demo", "https://radio.example/other.m3u"], socket: socket)
        #expect(twice.status == 1, "two channels of one name: \(twice.output)")
        #expect(try ctl(["channel", "remove", "Club", "Radio"], socket: socket).status == 0)
        #expect(!(try ctl(["channel", "list"], socket: socket).output.contains("Club Radio")))
        let last = try ctl(["channel", "remove", "Demo"], socket: socket)
        #expect(last.status == 1, "the last channel stays: \(last.output)")
        // The web page's password, as the installer sets it: from standard input, kept as a hash.
        #expect(try ctl(["web"], socket: socket).output.contains("password: none"))
        let set = try ctl(["web", "password"], socket: socket, input: "correct horse battery\n")
        #expect(set.status == 0 && set.output.contains("password: set"), "\(set.output)\(set.errors)")
        let hash = try String(contentsOf: directory.appendingPathComponent("web-password"), encoding: .utf8)
        #expect(hash.hasPrefix("$y$") && !hash.contains("correct horse"), "\(hash)")
        let short = try ctl(["web", "password"], socket: socket, input: "short\n")
        #expect(short.status == 1 && short.errors.contains("at least 8 characters"), "\(short.errors)")
        #expect(try ctl(["web", "reset"], socket: socket).output.contains("password: none"))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("web-password").path))
    }

    /// `tone on` puts a 1 kHz sine at -18 dBFS where the programme was, `tone off` takes it
    /// away: read back from the simulated host's WAV output.
    @Test func theTestToneReachesTheOutputAndGoesAgain() throws {
        let directory = try ExternalTool.temporaryDirectory("ctl-tone")
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("control.sock").path
        let box = try startAppliance(in: directory)
        // The output renders at real-time pace: its file's length is how far it has played.
        let wav = directory.appendingPathComponent("out/delaybox.wav")
        func played(_ seconds: Double, after start: Double) -> Bool {
            Eventually.holds(within: seconds + 10) { WavCapture.secondsWritten(path: wav.path) >= start + seconds }
        }
        #expect(played(1, after: 0), "the output plays")
        // The tone lasts from when `on` was answered to when `off` was: between the two
        // calls' returns and their starts (a busy machine spawns delayboxctl slowly), give
        // or take the 100 ms periods the WAV output renders in.
        let onAsked = Date()
        #expect(try ctl(["tone", "on"], socket: socket).status == 0)
        let onDone = Date()
        #expect(played(1.5, after: WavCapture.secondsWritten(path: wav.path)), "1.5 s of the tone rendered")
        let offAsked = Date()
        #expect(try ctl(["tone", "off"], socket: socket).status == 0)
        let offDone = Date()
        #expect(played(1.5, after: WavCapture.secondsWritten(path: wav.path)), "1.5 s of the programme again")
        #expect(try ctl(["tone", "loud"], socket: socket).status == 64)
        box.process.stop(within: 10)

        let samples = try WavCapture.stereoSamples(path: wav.path)
        // 10 ms windows: the tone's are equal on both sides, peak at -18 dBFS times the
        // listener's volume (50: the simulated host's default) and cross zero 20 times.
        let expectedPeak = Int((TestTone.amplitude * VolumeCurve.gain(50) * 32_767).rounded())
        let windows = (0..<(samples.count / 960)).map { index -> Bool in
            let window = samples[(index * 960)..<((index + 1) * 960)]
            let left = stride(from: window.startIndex, to: window.endIndex, by: 2).map { Int(window[$0]) }
            let sameSides = stride(from: window.startIndex, to: window.endIndex, by: 2).allSatisfy {
                window[$0] == window[$0 + 1]
            }
            let peak = left.map(abs).max() ?? 0
            let crossings = zip(left, left.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
            return sameSides && abs(peak - expectedPeak) <= expectedPeak / 50 + 1 && (19...21).contains(crossings)
        }
        let toneWindows = windows.filter { $0 }.count
        let shortest = Int((offAsked.timeIntervalSince(onDone) - 0.2) * 100),
            longest = Int((offDone.timeIntervalSince(onAsked) + 0.2) * 100)
        #expect(
            toneWindows >= shortest && toneWindows <= longest,
            "\(toneWindows) windows of 10 ms carry the tone (\(shortest)-\(longest) expected)")
        #expect(!windows.suffix(50).contains(true), "the programme is back at the end")
    }

    /// Issue 68: a box with no board file (a card just flashed) chooses one at its start and
    /// plays, serves and answers on it: the board its HAT names; without a HAT, the defaults
    /// on its first sound card that is not HDMI — here a USB DAC beside HDMI and the jack.
    @Test func aBoxWithoutABoardFileChoosesOneAndRuns() throws {
        for (hat, expected) in [
            ("HiFiBerry DAC+ Pro\0", "HiFiBerry"), ("", "Automatic: Device"),
        ] {
            let directory = try ExternalTool.temporaryDirectory("ctl-auto-board")
            defer { try? FileManager.default.removeItem(at: directory) }
            let cards = directory.appendingPathComponent("cards")
            try Data(
                """
                 0 [vc4hdmi0       ]: vc4-hdmi - vc4-hdmi-0
                 1 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones
                 2 [Device         ]: USB-Audio - USB Audio Device
                """.utf8
            ).write(to: cards)
            let product = directory.appendingPathComponent("product")
            try Data(hat.utf8).write(to: product)
            let socket = directory.appendingPathComponent("control.sock").path
            let box = try BoxUnderTest(
                executables: BoxUnderTest.debugBuild(root: Self.root), in: directory,
                arguments: ["--auto-board", "--seconds", "20"],
                environment: ["DELAYBOX_SOUND_CARDS": cards.path, "DELAYBOX_HAT_PRODUCT": product.path], board: nil)
            defer { box.process.stop(within: 10) }
            try box.waitForSocket()
            let board = try ctl(["board"], socket: socket)
            #expect(board.status == 0 && board.output.contains(expected), "\(board.output)\(board.errors)")
            if hat.isEmpty { #expect(board.output.contains("hw:CARD=Device,DEV=0"), "\(board.output)") }
            let written = try String(
                contentsOf: directory.appendingPathComponent("auto-board.yaml"), encoding: .utf8)
            #expect(written.hasPrefix("# Chosen by the box at its start"), "\(written)")
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("board.yaml").path))
        }
    }

    /// Issue 66: root's delayboxctl (release-check asks the service with it) talks only to a
    /// socket in a directory no one else may write to, never through a link: a local user
    /// cannot put an answer of their own in root's way.
    @Test func rootTalksOnlyToASocketNoOneElseCouldHavePut() throws {
        guard geteuid() == 0 else { return }
        let directory = try ExternalTool.temporaryDirectory("ctl-socket")
        let open = directory.appendingPathComponent("open")
        try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
        chmod(open.path, 0o777)
        let planted = open.appendingPathComponent("control.sock").path
        let listener = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        guard var target = sockaddr_un.unix(planted) else { throw ExternalTool.Failed(description: "socket path") }
        let bound = withUnsafePointer(to: &target.address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, target.length) }
        }
        #expect(bound == 0 && listen(listener, 1) == 0)
        let writable = try ctl(["status"], socket: planted)
        #expect(writable.status == 3 && writable.errors.contains("may be written by others"), "\(writable.errors)")
        chmod(open.path, 0o755)
        let link = directory.appendingPathComponent("link.sock").path
        #expect(symlink(planted, link) == 0)
        let linked = try ctl(["status"], socket: link)
        #expect(linked.status == 3 && linked.errors.contains("not a socket"), "\(linked.errors)")
    }

    @Test func anUnreachableApplianceIsExitStatusThree() throws {
        let result = try ctl(["status"], socket: "/tmp/delaybox-no-such.sock")
        #expect(result.status == 3)
        #expect(result.errors.contains("cannot reach the appliance"))
    }

    @Test func garbageRequestsAreAnsweredWithErrorsAndNeverStopTheSocket() throws {
        let directory = try ExternalTool.temporaryDirectory("ctl-garbage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("control.sock").path
        let box = try startAppliance(in: directory)
        defer { box.process.stop(within: 10) }
        var random = SplitMix64(seed: 11)
        var answered = 0
        for _ in 0..<500 {
            let bytes = (0..<Int.random(in: 0...2_000, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            if let reply = try? Self.raw(bytes, socket: socket), !reply.isEmpty { answered += 1 }
        }
        #expect(answered == 500, "every request got an answer")
        // Clients that hang up before their answer: the box must not die of SIGPIPE.
        for _ in 0..<20 { try Self.hangUp(after: Array("status\n".utf8), socket: socket) }
        #expect(try ctl(["version"], socket: socket).output.contains("version: 0.1.0"))
        // The socket's own words: the answer's kind first, then the console's text.
        #expect(try Self.raw(Array("version".utf8), socket: socket).hasPrefix("ok\nversion: 0.1.0"))
        #expect(try Self.raw(Array("delay soon".utf8), socket: socket).hasPrefix("usage\nerror: 'soon' is not a delay"))
        #expect(try Self.raw(Array("preset 4".utf8), socket: socket).hasPrefix("refused\nresult: refused: "))
        #expect(
            try Self.raw(Array("remote".utf8), socket: socket).hasPrefix("unavailable\nerror: this board has no remote")
        )
    }

    /// A venue change is answered once root's helper is done (seconds on a slow board):
    /// `delayboxctl` waits as long as the command's patience, not a quick command's 5 s. A
    /// stand-in appliance answers after 6 s.
    @Test func aVenueChangeIsWaitedForPastAQuickCommandsTimeout() throws {
        let directory = try ExternalTool.temporaryDirectory("ctl-slow")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("control.sock").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = try #require(sockaddr_un.unix(path))
        let length = address.length
        let bound = withUnsafePointer(to: &address.address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        try #require(bound == 0 && listen(listener, 1) == 0)
        let answering = Thread {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 256)
            _ = read(client, &buffer, buffer.count)
            sleep(6)
            let answer = Array("ok\nresult: ok\nvenue: this box is in no venue\n".utf8)
            _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(client)
        }
        answering.start()
        let leave = try ctl(["venue", "leave"], socket: path)
        #expect(leave.status == 0 && leave.output.contains("this box is in no venue"), "\(leave.errors)")
    }

    @Test func shellCompletionIsGenerated() throws {
        let result = try ExternalTool.execute(
            BuiltProgram.url("delayboxctl", root: Self.root),
            ["--generate-completion-script", "bash"])
        #expect(result.status == 0 && result.output.contains("delayboxctl") && result.output.contains("status"))
    }

    /// Connects, sends `bytes` and closes at once, without reading the answer.
    static func hangUp(after bytes: [UInt8], socket path: String) throws {
        let fd = try connected(to: path)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
    }

    /// A stream socket connected to `path` (`sockaddr_un.unix`, as the box makes its own).
    static func connected(to path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard var target = sockaddr_un.unix(path) else {
            close(fd)
            throw ExternalTool.Failed(description: "socket path too long")
        }
        let length = target.length
        let connected = withUnsafePointer(to: &target.address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, length) }
        }
        guard connected == 0 else {
            close(fd)
            throw ExternalTool.Failed(description: "connect")
        }
        return fd
    }

    /// Sends raw bytes (and a newline) and returns the answer.
    static func raw(_ bytes: [UInt8], socket path: String) throws -> String {
        let fd = try connected(to: path)
        defer { close(fd) }
        let request = bytes + [10]
        _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            answer += buffer.prefix(count)
        }
        return String(decoding: answer, as: UTF8.self)
    }
}
