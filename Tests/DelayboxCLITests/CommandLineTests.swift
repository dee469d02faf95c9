import DelayboxTestSupport
import Foundation
import Testing

/// Runs the built `delaybox` binary as a user would.
@Suite(.serialized, .timeLimit(.minutes(10))) struct CommandLineTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func delaybox(_ arguments: [String]) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(BuiltProgram.url("delaybox", root: Self.root), arguments)
    }

    @Test func versionAndHelp() throws {
        let version = try delaybox(["--version"])
        #expect(version.status == 0)
        #expect(version.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        let help = try delaybox(["--help"])
        #expect(help.status == 0)
        #expect(help.output.contains("run"))
        #expect(help.output.contains("simulate"))
    }

    /// `delaybox web-password`: the installer's way to set the page's password before the
    /// service starts — a yescrypt hash beside the state file, only its owner may read it;
    /// a short one refused and nothing written.
    @Test func theWebPasswordIsWrittenBesideTheStateWithNoServiceRunning() throws {
        let directory = try ExternalTool.temporaryDirectory("web-password")
        defer { try? FileManager.default.removeItem(at: directory) }
        let state = directory.appendingPathComponent("state.json").path
        let program = BuiltProgram.url("delaybox", root: Self.root)
        let short = try ExternalTool.execute(program, ["web-password", "--state", state], input: "short\n")
        #expect(short.status != 0 && short.errors.contains("at least 8"), "\(short.errors)")
        let file = directory.appendingPathComponent("web-password").path
        #expect(!FileManager.default.fileExists(atPath: file))
        let set = try ExternalTool.execute(
            program, ["web-password", "--state", state], input: "correct horse battery\n")
        #expect(set.status == 0, "\(set.errors)")
        let hash = try String(contentsOfFile: file, encoding: .utf8)
        #expect(hash.hasPrefix("$y$"), "\(hash)")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// `delaybox board`: proposes the board a HAT's EEPROM names, writes a board.yaml that
    /// the service reads (the shipped file by its absolute path, not a copy whose
    /// `extends: base.yaml` finds nothing), and the board's config.txt lines in a block of
    /// their own — once, and replaced for another board (issue 57).
    @Test func theBoardIsChosenOnTheBoxWithItsConfigTxtLines() throws {
        let directory = try ExternalTool.temporaryDirectory("board")
        defer { try? FileManager.default.removeItem(at: directory) }
        let product = directory.appendingPathComponent("product")
        try "HiFiBerry DAC+\0".write(to: product, atomically: true, encoding: .utf8)
        let proposed = try delaybox(["board", "--hat-product", product.path])
        #expect(proposed.status == 0 && proposed.output.contains("delaybox board pi4-hifiberry-dacplus"), "\(proposed)")
        let none = try delaybox(["board", "--hat-product", directory.appendingPathComponent("none").path])
        #expect(none.output.contains("no HAT names itself"), "\(none.output)")

        let etc = directory.appendingPathComponent("etc"), boot = directory.appendingPathComponent("config.txt")
        let piOS = "dtparam=audio=on\n[all]\n"
        try piOS.write(to: boot, atomically: true, encoding: .utf8)
        func choose(_ name: String) throws -> ExternalTool.Outcome {
            try delaybox(["board", name, "--config-dir", etc.path, "--boot-config", boot.path, "--yes"])
        }
        let chosen = try choose("pi4-hifiberry-dacplus")
        #expect(chosen.status == 0 && chosen.output.contains("reboot"), "\(chosen.output) \(chosen.errors)")
        let board = try String(contentsOf: etc.appendingPathComponent("board.yaml"), encoding: .utf8)
        #expect(board.contains("extends: /") && board.contains("board-configs/pi4-hifiberry-dacplus.yaml"), "\(board)")
        let checked = try delaybox(["check-config", etc.appendingPathComponent("board.yaml").path])
        #expect(checked.status == 0, "the box starts from it: \(checked.errors)")
        let written = try String(contentsOf: boot, encoding: .utf8)
        #expect(written.hasPrefix(piOS) && written.contains("\ndtoverlay=hifiberry-dacplus\n"), "\(written)")
        let again = try choose("pi4-hifiberry-dacplus")
        let unchanged = try String(contentsOf: boot, encoding: .utf8)
        #expect(again.output.contains("has the board's lines") && unchanged == written, "\(again.output)")
        _ = try choose("pizero2w-phat-dac")
        let other = try String(contentsOf: boot, encoding: .utf8)
        #expect(!other.contains("hifiberry-dacplus") && other.contains("dtoverlay=disable-bt"), "\(other)")
        let unknown = try choose("pi9-nothing")
        #expect(unknown.status != 0 && unknown.errors.contains("pi4-hifiberry-dacplus"), "\(unknown.errors)")
    }

    @Test func theOneHourAcceptanceSimulation() throws {
        let result = try delaybox(AcceptanceSimulation.arguments)
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let lost = try #require(json["lost_ms"] as? Double)
        #expect(abs(lost - 6_000) <= 24)
        #expect(json["gaps_ms"] as? Double == 0)
        #expect(json["underruns"] as? Int == 0)
        #expect((json["delay_error_ms_p99"] as? Double ?? 99) < 1)
        #expect(json["events"] is [Any])
    }

    /// The sync acceptance run: 3 h at 100 ppm of DAC drift with three outages.
    @Test func threeHoursOfDriftHoldTheDelayWithinMilliseconds() throws {
        let result = try delaybox([
            "simulate", "--duration", "10800", "--delay", "45", "--drift-ppm", "100", "--outage", "1800:5",
            "--outage", "3600:20", "--outage", "7200:2", "--json",
        ])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect((json["delay_error_ms_max"] as? Double ?? 99) <= 20, "\(json["delay_error_ms_max"] ?? "none")")
        #expect((json["delay_error_ms_p99"] as? Double ?? 99) <= 5, "\(json["delay_error_ms_p99"] ?? "none")")
        #expect(abs((json["drift_ppm_measured"] as? Double ?? 0) - 100) < 10, "\(json["drift_ppm_measured"] ?? "none")")
        #expect(json["resyncs"] as? Int == 0)
    }

    /// A slow DAC as users type it: `--drift-ppm -100`, a value, not an option.
    @Test func aNegativeDriftIsTakenAsTyped() throws {
        let result = try delaybox(["simulate", "--duration", "600", "--delay", "10", "--drift-ppm", "-100", "--json"])
        #expect(result.status == 0, "\(result.errors)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["drift_ppm"] as? Double == -100)
        #expect(abs((json["drift_ppm_measured"] as? Double ?? 0) + 100) < 15, "\(json["drift_ppm_measured"] ?? "none")")
    }

    @Test func checkConfigPassesAShippedBoardAndFailsABrokenOneWithPlaces() throws {
        let good = try delaybox([
            "check-config", Self.root.appendingPathComponent("board-configs/pizero2w-phat-dac.yaml").path,
        ])
        #expect(good.status == 0, "\(good.errors)")
        #expect(good.output.contains("OK: Raspberry Pi Zero 2 W + pHAT DAC"))
        #expect(
            good.output.contains("config.txt needs:\n  dtparam=audio=off\n  dtoverlay=hifiberry-dac\n"),
            "\(good.output)")
        let directory = try ExternalTool.temporaryDirectory("check-config")
        defer { try? FileManager.default.removeItem(at: directory) }
        // What the package's keymap loader reads: the receiver and the keymap, or nothing.
        let withRemote = directory.appendingPathComponent("remote.yaml")
        try
            "extends: [\(Self.root.path)/board-configs/pizero2w-phat-dac.yaml, \(Self.root.path)/board-configs/remotes/car-mp3.yaml]\n"
            .write(to: withRemote, atomically: true, encoding: .utf8)
        #expect(
            try delaybox(["check-config", withRemote.path, "--print-keymap"]).output
                == "gpio_ir_recv /usr/share/delaybox/rc_keymaps/car-mp3.toml\n")
        #expect(
            try delaybox([
                "check-config", Self.root.appendingPathComponent("board-configs/pizero2w-phat-dac.yaml").path,
                "--print-keymap",
            ]).output == "")
        let bad = directory.appendingPathComponent("bad.yaml")
        try
            "board:\n  name: X\naudio:\n  device: default\n  perod: 20 ms\nchannels:\n  - { name: A, url: 'http://a/b' }\n"
            .write(to: bad, atomically: true, encoding: .utf8)
        let result = try delaybox(["check-config", bad.path])
        #expect(result.status == 1)
        #expect(
            result.errors.contains("\(bad.path):5:3: error: unknown key 'audio.perod'; did you mean 'period'?"),
            "\(result.errors)")
    }

    @Test func boardsListsTheShippedBoards() throws {
        let result = try delaybox(["boards"])
        #expect(result.status == 0)
        let names = result.output.split(separator: "\n").map { $0.split(separator: " ").first.map(String.init) ?? "" }
        for name in [
            "simulated-host", "pi4-hifiberry-dacplus", "pi3-iqaudio-dacplus", "pizero2w-phat-dac",
            "pi4-wm8960", "pi4-headphones", "virtual-board",
        ] {
            #expect(names.contains(name), "\(name) (as install.sh --board takes it) in \(result.output)")
        }
        #expect(!result.output.contains("INVALID") && !names.contains("base"))
        // One column each: every board's device starts where the others' do.
        let rows = result.output.split(separator: "\n").dropLast().map(String.init)
        let starts = rows.map { row -> Int? in
            guard let device = row.range(of: "hw:") ?? row.range(of: "default") else { return nil }
            return row.distance(from: row.startIndex, to: device.lowerBound)
        }
        #expect(Set(starts).count == 1 && starts.first != nil, "\(result.output)")
    }

    @Test(arguments: [
        ["play", "x.mp3", "--delay", "1e308"], ["simulate", "--duration=-5"], ["simulate", "--outage", "1e300:3"],
        ["run", "--board", "b.yaml", "--delay", "nan"],
    ])
    func absurdDurationsAreRefusedNotTrappedOn(arguments: [String]) throws {
        let result = try delaybox(arguments)
        #expect(result.status == 64, "a usage error: \(result.errors)")
        #expect(result.errors.contains("must be 0 to 86400 seconds"), "\(result.errors)")
    }

    /// The delivery models' values are checked before any arithmetic, each refusal naming
    /// its option (issue 67).
    @Test(arguments: [
        ["--hls-segment", "0"], ["--hls-segment", "nan"], ["--path-change", "5:99999"], ["--path-change", "-1:20"],
        ["--jitter-tail-ms", "5000"], ["--latency-ms", "-3"], ["--jitter-ms", "99999"],
    ])
    func aDeliveryModelOutOfRangeIsRefused(arguments: [String]) throws {
        let result = try delaybox(["simulate", "--duration", "10"] + arguments)
        #expect(result.status == 64, "a usage error: \(result.errors)")
        #expect(result.errors.contains(arguments[0]), "\(result.errors)")
    }

    @Test func aBadOutageSaysWhatItWants() throws {
        let result = try delaybox(["simulate", "--outage", "soon"])
        #expect(result.status != 0)
        #expect(result.errors.contains("AT:LEN"))
    }

    @Test func runWritesAPlayableWavFileAtRealTimePace() throws {
        let started = Date()
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "run",
            arguments: ["--delay", "1", "--seconds", "2"]
        ) { directory in
            "extends: \(Self.root.appendingPathComponent("board-configs/simulated-host.yaml").path)\naudio:\n  device: wav:\(directory.appendingPathComponent("out.wav").path)\n"
        }
        let path = box.directory.appendingPathComponent("out.wav").path
        let result = box.finish()
        let elapsed = Date().timeIntervalSince(started)
        #expect(result.status == 0)
        #expect(result.log.contains("buffering -> playing"), "\(result.log)")
        #expect(elapsed >= 1.9, "paced at real time")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(String(decoding: data.prefix(4), as: UTF8.self) == "RIFF")
        let dataBytes = data.subdata(in: 40..<44).withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
        // Bytes; named: Swift 6.0 cannot type-check it inside #expect.
        let twoSecondsAndAFadeOut: Int = 2 * 48_000 * 4 + 960 * 4
        #expect(Int(dataBytes) == twoSecondsAndAFadeOut, "2 s, and the period that fades out at the end")
        #expect(data.count == 44 + Int(dataBytes))
        let lastSecond = data.suffix(48_000 * 4).prefix(40_000 * 4)
        #expect(lastSecond.contains { $0 != 0 }, "the tone is playing after the 1 s delay")
    }
}
