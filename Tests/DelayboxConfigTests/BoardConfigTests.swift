import DelayboxConfig
import DelayboxConfigFile
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct BoardConfigTests {
    // (Resolved: `make check` compiles this file through a link, tools/check/Tests.)
    static let boards = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("board-configs")

    static var shippedBoards: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: boards.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") && $0 != "base.yaml" }.sorted()
    }

    /// Writes `files` (name → YAML) into a fresh directory; returns its path.
    func directory(_ files: [String: String]) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "boardconfig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory
    }

    func diagnostics(_ yaml: String, extra: [String: String] = [:]) throws -> [String] {
        let directory = try directory(extra.merging(["board.yaml": yaml]) { a, _ in a })
        defer { try? FileManager.default.removeItem(at: directory) }
        return ConfigFile.load(directory.appendingPathComponent("board.yaml").path).diagnostics
            .map { $0.description.replacingOccurrences(of: directory.path + "/", with: "") }
    }

    static let minimal = """
        board:
          name: Test
          hat: hifiberry-dacplus
        audio:
          device: default
        channels:
          - name: Club
            url: http://radio.example/live.mp3

        """

    @Test func atLeastTheBoardsTheIssueAsksForAreShipped() {
        #expect(Self.shippedBoards.count >= 6, "\(Self.shippedBoards)")
        #expect(Self.shippedBoards.contains("simulated-host.yaml"))
    }

    @Test(arguments: shippedBoards)
    func everyShippedBoardIsValidAndSaysWhatConfigTxtNeeds(file: String) throws {
        let result = ConfigFile.load(Self.boards.appendingPathComponent(file).path)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let config = try #require(result.config)
        // A Pi board says how its sound and, for a console on the header's UART, the UART
        // are switched on (the simulated host and the virtual boards are no Pi: no firmware
        // reads a config.txt there, although the arm64 one's console is a PL011 too).
        if file.hasPrefix("pi") {
            #expect(config.configTxt.contains { $0.hasPrefix("dtparam=audio") }, "\(config.configTxt)")
            if let console = config.console, AudioHAT.uartDevices.contains(console.device) {
                #expect(config.configTxt.contains("enable_uart=1"))
            }
        }
    }

    @Test func aBoardExtendsTheBaseAndChangesOnlyWhatDiffers() throws {
        let config = try #require(
            ConfigFile.load(Self.boards.appendingPathComponent("pi3-iqaudio-dacplus.yaml").path).config)
        let tap = try #require(config.gpio?.buttons.first { $0.name == "tap" })
        #expect(tap.line == 23 && tap.press == .tapSync, "the line moved, the action came from the base")
        #expect(config.gpio?.encoder?.a == 5)
        #expect(config.audio.mixer == "Digital")
    }

    @Test func aSiteFileOverridesTheBoard() throws {
        let directory = try directory(["site.conf": "defaults:\n  delay: 45 s\naudio:\n  period: 40 ms\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConfigFile.load(
            Self.boards.appendingPathComponent("pi4-hifiberry-dacplus.yaml").path,
            site: directory.appendingPathComponent("site.conf").path)
        let config = try #require(result.config, "\(result.diagnostics)")
        #expect(config.defaults.delay.milliseconds == 45_000)
        #expect(config.audio.period == .milliseconds(40) && config.audio.device == "hw:CARD=sndrpihifiberry,DEV=0")
    }

    /// Issue 58: what the output adds after the device (a Bluetooth speaker) is the owner's
    /// to say, 0 to 2 s, 0 unless said.
    @Test func anOutputsOwnLatencyIsReadAndChecked() throws {
        let directory = try directory(["site.conf": "audio:\n  output_latency: 180 ms\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let board = Self.boards.appendingPathComponent("pi4-hifiberry-dacplus.yaml").path
        let config = try #require(
            ConfigFile.load(board, site: directory.appendingPathComponent("site.conf").path).config)
        #expect(config.audio.outputLatency == .milliseconds(180))
        #expect(ConfigFile.load(board).config?.audio.outputLatency == .milliseconds(0))
        let found = try diagnostics(
            Self.minimal.replacingOccurrences(of: "device: default", with: "device: default\n  output_latency: 3 s"))
        #expect(found.contains { $0.contains("'audio.output_latency' is 3 s; allowed 0 ms to 2 s") }, "\(found)")
    }

    /// Issue 57: the hours a new release may restart a playing box; an hour before dawn
    /// unless said, `none` for never.
    @Test func theUpdateWindowIsReadAndChecked() throws {
        let directory = try directory(["board.yaml": Self.minimal + "update:\n  window: 22:00-23:30\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try #require(ConfigFile.load(directory.appendingPathComponent("board.yaml").path).config)
        #expect(config.updateWindow.description == "22:00-23:30")
        #expect(try diagnostics(Self.minimal).isEmpty)
        let found = try diagnostics(Self.minimal + "update:\n  window: after the match\n  when: now\n")
        #expect(found.contains { $0.contains("'update.window' is 'after the match'") }, "\(found)")
        #expect(found.contains { $0.contains("unknown key 'update.when'") }, "\(found)")
    }

    /// The same setting as a bare number of milliseconds (`output_latency_ms`, the name the
    /// issue and other players use); both names at once are refused.
    @Test func anOutputsLatencyInMillisecondsIsTheSameSetting() throws {
        let withNumber = Self.minimal.replacingOccurrences(
            of: "device: default", with: "device: default\n  output_latency_ms: 200")
        #expect(try diagnostics(withNumber).isEmpty)
        let directory = try directory(["board.yaml": withNumber])
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try #require(ConfigFile.load(directory.appendingPathComponent("board.yaml").path).config)
        #expect(config.audio.outputLatency == .milliseconds(200))
        let both = try diagnostics(
            withNumber.replacingOccurrences(of: "device: default", with: "device: default\n  output_latency: 1 s"))
        #expect(both.contains { $0.contains("are one setting") }, "\(both)")
        let tooLong = try diagnostics(withNumber.replacingOccurrences(of: "_ms: 200", with: "_ms: 2500"))
        #expect(tooLong.contains { $0.contains("'audio.output_latency_ms' is 2500; allowed 0-2000") }, "\(tooLong)")
    }

    @Test func aSiteFileOfOnlyCommentsSetsNothingButAnEmptyBoardFileIsAnError() throws {
        let directory = try directory(["site.conf": "# channels:\n#   - name: Club\n", "board.yaml": "# nothing yet\n"])
        defer { try? FileManager.default.removeItem(at: directory) }
        let board = Self.boards.appendingPathComponent("pi4-hifiberry-dacplus.yaml").path
        let withSite = ConfigFile.load(board, site: directory.appendingPathComponent("site.conf").path)
        #expect(withSite.diagnostics.isEmpty, "\(withSite.diagnostics)")
        #expect(withSite.config == ConfigFile.load(board).config)
        let empty = ConfigFile.load(directory.appendingPathComponent("board.yaml").path)
        #expect(empty.config == nil && empty.diagnostics.map(\.message) == ["the config file is empty"])
    }

    @Test func unknownKeysAreReportedWhereTheyAreWithASuggestion() throws {
        let found = try diagnostics(Self.minimal + "defaults:\n  max_dealy: 10 min\nconsol:\n  baud: 115200\n")
        #expect(
            found.contains("board.yaml:10:3: error: unknown key 'defaults.max_dealy'; did you mean 'max_delay'?"),
            "\(found)")
        #expect(found.contains("board.yaml:11:1: error: unknown key 'consol'; did you mean 'console'?"), "\(found)")
    }

    @Test func unitsRangesAndChoicesAreChecked() throws {
        let found = try diagnostics(
            Self.minimal.replacingOccurrences(of: "device: default", with: "device: default\n  format: S24LE") + """
                defaults:
                  delay: 45
                  max_delay: 2 h
                  initial_buffer: 10 s
                  volume: 140

                """)
        #expect(
            found.contains {
                $0.hasPrefix("board.yaml:11:10: error: 'defaults.delay' must be a duration with its unit")
            }, "\(found)")
        let huge = try diagnostics(Self.minimal + "defaults:\n  max_delay: 1e308 s\n  delay: nan s\n")
        #expect(
            huge.count == 2 && huge.allSatisfy { $0.contains("must be a duration") },
            "no trap on absurd numbers: \(huge)")
        #expect(found.contains { $0.hasPrefix("board.yaml:12:14:") && $0.contains("max_delay") }, "\(found)")
        #expect(
            found.contains("board.yaml:13:19: error: 'defaults.initial_buffer' is 10 s; allowed 1 s to 5 s"), "\(found)"
        )
        #expect(found.contains("board.yaml:14:11: error: 'defaults.volume' is 140; allowed 0-100"), "\(found)")
        #expect(
            found.contains { $0.contains("'audio.format' cannot be 'S24LE'") && $0.contains("did you mean 'S24_LE'?") },
            "\(found)")
    }

    /// The minimal board with `section` added: its config (nil when refused) and what the
    /// reader said.
    func minimalBoard(with section: String) throws -> (config: BoardConfig?, diagnostics: [String]) {
        let directory = try directory(["board.yaml": Self.minimal + section])
        defer { try? FileManager.default.removeItem(at: directory) }
        let loaded = ConfigFile.load(directory.appendingPathComponent("board.yaml").path)
        return (loaded.config, loaded.diagnostics.map(\.description))
    }

    @Test func theWebPageIsOnWithAWebSectionAndOffWhenItSaysSo() throws {
        func web(_ section: String) throws -> (settings: WebSettings?, diagnostics: [String]) {
            let loaded = try minimalBoard(with: section)
            return (loaded.config?.web, loaded.diagnostics)
        }
        #expect(try web("").settings == nil, "no section: no page")
        #expect(try web("web:\n  port: 8080\n").settings == WebSettings(port: 8080))
        #expect(try web("web:\n  enabled: true\n").settings == WebSettings(port: 80), "port 80 unless said")
        #expect(try web("web:\n  port: 8080\n  enabled: false\n").settings == nil)
        let refused = try web("web:\n  port: 70000\n")
        #expect(
            refused.diagnostics.contains { $0.contains("'web.port' is 70000; allowed 1-65535") },
            "\(refused.diagnostics)")
        let typo = try web("web:\n  prot: 8080\n")
        #expect(typo.diagnostics.contains { $0.contains("prot") && $0.contains("port") }, "\(typo.diagnostics)")
        // Every shipped Pi board serves it on port 80 (base.yaml), through systemd's socket.
        let pi = ConfigFile.load(Self.boards.appendingPathComponent("pi4-hifiberry-dacplus.yaml").path)
        #expect(pi.config?.web == WebSettings(port: 80))
    }

    /// Issue 60: the hotspot when lost — on with a `wifi:` section (every shipped Pi board),
    /// after 3 min unless said, `never` by itself; its password WPA2's.
    @Test func theWiFiSectionSaysWhenTheHotspotOpens() throws {
        func wifi(_ section: String) throws -> (settings: WiFiSettings?, diagnostics: [String]) {
            let loaded = try minimalBoard(with: section)
            return (loaded.config?.wifi, loaded.diagnostics)
        }
        #expect(try wifi("").settings == nil, "no section: the Wi-Fi left alone")
        #expect(try wifi("wifi:\n  enabled: true\n").settings == WiFiSettings(hotspotAfter: .minutes(3)))
        #expect(try wifi("wifi:\n  hotspot_after: 90 s\n").settings?.hotspotAfter == .seconds(90))
        #expect(try wifi("wifi:\n  hotspot_after: never\n").settings == WiFiSettings(hotspotAfter: nil))
        #expect(try wifi("wifi:\n  enabled: false\n").settings == nil)
        let label = try wifi("wifi:\n  hotspot_password: club-lounge-7\n").settings?.hotspotPassword
        #expect(label?.revealed == "club-lounge-7")
        #expect("\(String(describing: label))".contains("club") == false, "a secret prints as set, never as text")
        for (section, words) in [
            ("hotspot_after: 2 s", "'wifi.hotspot_after' is 2 s; allowed 10 s"),
            ("hotspot_after: soon", "must be a duration"),
            ("hotspot_password: short", "8-63 printable ASCII"),
            ("hotspot_password: \"\"", "give 8-63 characters"),
        ] {
            let refused = try wifi("wifi:\n  \(section)\n")
            #expect(refused.diagnostics.contains { $0.contains(words) }, "\(section): \(refused.diagnostics)")
        }
        let pi = ConfigFile.load(Self.boards.appendingPathComponent("pi4-hifiberry-dacplus.yaml").path)
        #expect(pi.config?.wifi == WiFiSettings(), "a Pi's: after 3 min, the machine's password")
    }

    /// A Pi's wall clock is believed once the network has set it; a board that says it has
    /// a battery-backed clock (or the simulated host, whose system keeps time) always.
    @Test func theBoardsClockIsTheNetworksUnlessItSaysItKeepsTime() throws {
        func loaded(_ yaml: String) throws -> (config: BoardConfig?, diagnostics: [String]) {
            let directory = try directory(["board.yaml": yaml])
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = ConfigFile.load(directory.appendingPathComponent("board.yaml").path)
            return (result.config, result.diagnostics.map(\.description))
        }
        #expect(try loaded(Self.minimal).config?.clock == .network)
        let rtc = Self.minimal.replacingOccurrences(
            of: "  hat: hifiberry-dacplus\n", with: "  hat: hifiberry-dacplus\n  clock: rtc\n")
        #expect(try loaded(rtc).config?.clock == .rtc)
        let wrong = try loaded(rtc.replacingOccurrences(of: "clock: rtc", with: "clock: gps"))
        #expect(
            wrong.config == nil
                && wrong.diagnostics.contains { $0.contains("'board.clock'") && $0.contains("network, rtc") },
            "\(wrong.diagnostics)")
        #expect(
            ConfigFile.load(Self.boards.appendingPathComponent("pi4-hifiberry-dacplus.yaml").path).config?.clock
                == .network)
        #expect(ConfigFile.load(Self.boards.appendingPathComponent("simulated-host.yaml").path).config?.clock == .rtc)
    }

    /// The IR keymap the package's loader (a root script) puts into the receiver: one of the
    /// package's by name, or an absolute path to a .toml file — nothing a shell would read.
    @Test func aRemotesKeymapIsAPackagedNameOrAPath() throws {
        func remote(_ keymap: String) throws -> (settings: RemoteSettings?, diagnostics: [String]) {
            let yaml =
                Self.minimal + "remote:\n  device: gpio_ir_recv\n  keymap: '\(keymap)'\n  keys:\n    KEY_OK: tap_sync\n"
            let directory = try directory(["board.yaml": yaml])
            defer { try? FileManager.default.removeItem(at: directory) }
            let loaded = ConfigFile.load(directory.appendingPathComponent("board.yaml").path)
            return (loaded.config?.remote, loaded.diagnostics.map(\.description))
        }
        #expect(try remote("car-mp3").settings?.keymapPath == "/usr/share/delaybox/rc_keymaps/car-mp3.toml")
        #expect(try remote("/home/pi/my-remote.toml").settings?.keymapPath == "/home/pi/my-remote.toml")
        for hostile in ["car-mp3; reboot", "$(id)", "../../etc/shadow", "/etc/shadow", "a b", "/x/../y.toml"] {
            let refused = try remote(hostile)
            #expect(
                refused.settings == nil && refused.diagnostics.contains { $0.contains("'remote.keymap' is") },
                "\(hostile): \(refused.diagnostics)")
        }
    }

    @Test func aRateTheEngineDoesNotPlayIsRefusedWithTheWayOut() throws {
        let found = try diagnostics(
            Self.minimal.replacingOccurrences(of: "device: default", with: "device: default\n  rate: 44100"))
        #expect(
            found.contains { $0.contains("'audio.rate' is 44100: the box plays 48000 Hz") && $0.contains("plughw:") },
            "\(found)")
        #expect(
            try diagnostics(
                Self.minimal.replacingOccurrences(of: "device: default", with: "device: default\n  rate: 48000")
            ).isEmpty)
    }

    @Test func twoFunctionsOnOneLineAndLinesTheHATOrConsoleTakeAreErrors() throws {
        let found = try diagnostics(
            Self.minimal + """
                console:
                  device: /dev/ttyAMA0
                gpio:
                  buttons:
                    play: { line: 17, press: play_pause }
                    mute: { line: 17, press: mute }
                    vol: { line: 18, press: volume_up }
                    txd: { line: 14, press: mute }

                """)
        #expect(
            found.contains("board.yaml:14:19: error: GPIO 17 is used twice: button 'play' and button 'mute'"),
            "\(found)")
        #expect(
            found.contains(
                "board.yaml:15:18: error: GPIO 18 (button 'vol') is taken by the hifiberry-dacplus HAT (I2S BCLK)"),
            "\(found)")
        #expect(
            found.contains {
                $0.hasPrefix(
                    "board.yaml:16:18: error: GPIO 14 (button 'txd') is taken by the serial console on /dev/ttyAMA0")
            }, "\(found)")
    }

    @Test func brokenFilesSayWhereAndWhy() throws {
        let syntax = try diagnostics("board:\n  name: [unclosed\naudio: x\n")
        #expect(syntax.count == 1 && syntax[0].hasPrefix("board.yaml:") && syntax[0].contains("YAML"), "\(syntax)")
        let twice = try diagnostics(Self.minimal + "audio:\n  device: hw:0\n")
        #expect(twice == ["board.yaml:9:1: error: 'audio' is written twice in one mapping"], "\(twice)")
        let missingBase = try diagnostics("extends: nowhere.yaml\n" + Self.minimal)
        #expect(missingBase.first == "board.yaml:1:10: error: cannot extend 'nowhere.yaml'", "\(missingBase)")
        #expect(
            missingBase.contains { $0.contains("nowhere.yaml:1:1: error: the config file does not exist") },
            "\(missingBase)")
        let loop = try diagnostics("extends: other.yaml\n", extra: ["other.yaml": "extends: board.yaml\n"])
        #expect(loop.contains { $0.contains("extends itself") }, "\(loop)")
        let channels = try diagnostics(
            "board: { name: X }\naudio: { device: default }\nchannels:\n  - name: A\n  - name: a\n    url: x\n")
        #expect(channels.contains("board.yaml:4:5: error: channel 'A' has no stream URL"), "\(channels)")
        #expect(channels.contains { $0.contains("two channels are named 'a'") }, "\(channels)")
    }

    @Test func yamlTypingTrapsDoNotApply() throws {
        let directory = try directory([
            "board.yaml": Self.minimal.replacingOccurrences(of: "name: Club", with: "name: no")
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try #require(ConfigFile.load(directory.appendingPathComponent("board.yaml").path).config)
        #expect(config.channels.selected.name == "no", "the channel called 'no' is not the boolean false")
    }
}

/// `config get`'s lookup in a document as written.
@Suite(.timeLimit(.minutes(10))) struct ConfigLookupTests {
    static let at = SourceLocation(file: "board.yaml", line: 1, column: 1)
    static func key(_ name: String, line: Int) -> ConfigNode.Key {
        .init(name, at: .init(file: "board.yaml", line: line, column: 1))
    }
    static let document = ConfigNode.mapping(
        [
            (
                key("audio", line: 1),
                .mapping([(key("device", line: 2), .scalar("hw:0", .init(file: "site.yaml", line: 4, column: 11)))], at)
            ),
            (
                key("channels", line: 3),
                .sequence([.mapping([(key("url", line: 4), .scalar("http://x/live", at))], at)], at)
            ),
        ], at)

    @Test func valuesAreFoundByDottedPathsWithWhereTheyWereWritten() {
        let device = Self.document.lookup("audio.device").node
        #expect(device?.summary == "hw:0")
        #expect(device?.location.file == "site.yaml" && device?.location.line == 4)
        #expect(Self.document.lookup("channels.0.url").node?.summary == "http://x/live")
        #expect(Self.document.lookup("channels").node?.summary == "[1 item]")
        #expect(Self.document.lookup("audio").node?.summary == "{device}")
    }

    /// `config set`: the smallest override; a list is replaced whole, so it carries all of
    /// it; and what `config save` writes reads back as the same values, quotes and all.
    @Test func overridesAreMinimalAndSavedOnesReadBack() throws {
        let value = ConfigNode.scalar("plug: \"hw\" # not a comment", Self.at)
        let device = try #require(Self.document.override(setting: "audio.device", to: value))
        #expect(device.lookup("audio.device").node?.summary == value.summary)
        #expect(device.lookup("channels").node == nil, "only what changes")
        let url = try #require(Self.document.override(setting: "channels.0.url", to: .scalar("http://y/live", Self.at)))
        #expect(url.lookup("channels.0.url").node?.summary == "http://y/live")
        #expect(Self.document.override(setting: "channels.3.url", to: value) == nil, "past the end")
        #expect(Self.document.override(setting: "audio.device.more", to: value) == nil, "into a value")
        let added = try #require(Self.document.override(setting: "defaults.volume", to: .scalar("40", Self.at)))
        #expect(
            Self.document.merged(with: added).lookup("defaults.volume").node?.summary == "40",
            "a new key under a new mapping")

        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "delaybox-saved-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try ConfigFile.yaml(device.merged(with: url)).write(to: file, atomically: true, encoding: .utf8)
        let read = try #require(ConfigFile.document(file.path).document)
        #expect(read.lookup("audio.device").node?.summary == value.summary)
        #expect(read.lookup("channels.0.url").node?.summary == "http://y/live")
    }

    /// A key longer than YAML's 1,024-character limit for implicit keys (the config fuzzer
    /// made one: backslashes that doubled when quoted) is written as an explicit key, and
    /// what is written reads back — at the top, above a mapping, and inside a flow mapping.
    @Test(arguments: [
        String(repeating: "\\", count: 600) + "ends",
        // 1,000 characters of 2,000 code points: a combining mark (U+07EC) on each
        // (the config fuzzer's long run, 2026-11-26: counted in characters, it
        // was written as an implicit key libyaml refused at column 1026).
        String(repeating: "\u{FFFD}\u{07EC}", count: 1_000),
    ])
    func aKeyTooLongForAnImplicitOneIsWrittenExplicitlyAndReadsBack(long: String) throws {
        let at = Self.at
        let flowItem = ConfigNode.mapping([(ConfigNode.Key(long, at: at), .scalar("x", at))], at)
        let document = ConfigNode.mapping(
            [
                (ConfigNode.Key(long, at: at), .scalar("1", at)),
                (ConfigNode.Key("nested", at: at), .mapping([(ConfigNode.Key(long, at: at), .scalar("2", at))], at)),
                (
                    ConfigNode.Key(long + "2", at: at),
                    .mapping([(ConfigNode.Key("inner", at: at), .scalar("3", at))], at)
                ),
                (ConfigNode.Key("list", at: at), .sequence([flowItem], at)),
            ], at)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "delaybox-long-key-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try ConfigFile.yaml(document).write(to: file, atomically: true, encoding: .utf8)
        let loaded = ConfigFile.document(file.path)
        let read = try #require(loaded.document, "\(loaded.diagnostics)")
        #expect(read.summary == document.summary)
    }

    /// An empty document is written as one (`{}`) and reads back as the empty mapping: the
    /// fuzzer's `{}` was written as nothing, which is no YAML document.
    @Test func anEmptyDocumentIsWrittenAsOneAndReadsBack() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "delaybox-empty-\(UUID().uuidString).yaml")
        defer { try? FileManager.default.removeItem(at: file) }
        try ConfigFile.yaml(.mapping([], Self.at)).write(to: file, atomically: true, encoding: .utf8)
        // Read as a board file is: an empty one would be an error there.
        let loaded = ConfigFile.document(file.path)
        let read = try #require(loaded.document, "\(loaded.diagnostics)")
        #expect(read.summary == ConfigNode.mapping([], Self.at).summary)
    }

    @Test func aMissingKeySaysWhereTheSearchStoppedAndWhatIsThere() {
        let missing = Self.document.lookup("audio.mixer")
        #expect(missing.node == nil && missing.missing == "mixer" && missing.deepest.path == "audio")
        #expect(missing.deepest.node.summary == "{device}")
        #expect(Self.document.lookup("channels.7.url").missing == "7")
        #expect(Self.document.lookup("audio.device.more").deepest.path == "audio.device", "a scalar has no keys")
    }
}
