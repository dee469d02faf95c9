import DelayboxCommands
import DelayboxConsole
import DelayboxSimulation
import Testing

@Suite(.timeLimit(.minutes(10))) struct ConsoleLanguageTests {
    func parse(_ line: String) -> ConsoleRequest? { try? ConsoleLanguage.parse(line)?.get() }

    func error(_ line: String) -> String? {
        guard case .failure(let error)? = ConsoleLanguage.parse(line) else { return nil }
        return error.description
    }

    @Test func delaysInEveryWayAUserWritesThem() {
        #expect(parse("delay 45")?.action == .command(.setDelay(milliseconds: 45_000)))
        #expect(parse("delay 45 s")?.action == .command(.setDelay(milliseconds: 45_000)))
        #expect(parse("delay 1.5 min")?.action == .command(.setDelay(milliseconds: 90_000)))
        #expect(parse("delay 300ms")?.action == .command(.setDelay(milliseconds: 300)))
        #expect(parse("delay +0.5")?.action == .command(.adjustDelay(milliseconds: 500)))
        #expect(parse("delay -1 s")?.action == .command(.adjustDelay(milliseconds: -1_000)))
        #expect(parse("DELAY live")?.action == .command(.jumpToLive))
        #expect(parse("delay")?.action == .showDelay)
        #expect(error("delay soon")?.contains("is not a delay") == true)
        #expect(error("delay 2 h")?.contains("is not a delay") == true)
        #expect(error("delay 90 min") == "a delay is at most 60 min")
    }

    @Test func everyCommandAndItsJSONForm() {
        #expect(parse("status --json") == ConsoleRequest(.status, json: true))
        #expect(parse("volume 40")?.action == .command(.setVolume(40)))
        #expect(parse("volume -5")?.action == .command(.adjustVolume(steps: -5)))
        #expect(parse("pause")?.action == .command(.pause) && parse("resume")?.action == .command(.resume))
        #expect(
            parse("mute")?.action == .command(.toggleMute) && parse("mute on")?.action == .command(.setMuted(true))
                && parse("mute OFF")?.action == .command(.setMuted(false)))
        #expect(parse("channel")?.action == .listChannels && parse("channel next")?.action == .command(.nextChannel))
        #expect(parse("channel City Radio")?.action == .selectChannel("City Radio"))
        #expect(
            parse("channel add City Radio https://x.example/City.pls")?.action
                == .addChannel(name: "City Radio", url: "https://x.example/City.pls"))
        #expect(parse("channel remove City Radio")?.action == .removeChannel("City Radio"))
        #expect(error("channel add") == "usage: channel [list | next | NAME | add NAME URL | remove NAME]")
        // A password is the rest of the line exactly as typed, spaces and "--json" too.
        #expect(parse("web password  two  spaces --json ")?.action == .webPassword(" two  spaces --json "))
        #expect(parse("WEB Password x")?.action == .webPassword("x"))
        // "\r\n" is one Character in Swift: a line's CRLF is not part of the password.
        #expect(parse("web password x y\r\n")?.action == .webPassword("x y"))
        #expect(error("web password") == "usage: web password PASSWORD")
        #expect(parse("web")?.action == .web && parse("web reset")?.action == .webReset)
        #expect(parse("web passwords x") == nil && error("web passwords x") != nil)
        #expect(parse("update check")?.action == .updateCheck && parse("update daily")?.action == .dailyUpdates(nil))
        #expect(parse("update daily OFF")?.action == .dailyUpdates(false) && error("update daily maybe") != nil)
        #expect(
            parse("update later")?.action == .update(version: nil, later: true)
                && parse("update later 1.4.0-1~deb13")?.action == .update(version: "1.4.0-1~deb13", later: true))
        #expect(error("update later soon")?.contains("not a release's version") == true)
        #expect(parse("factory reset")?.action == .factoryReset(forgetWiFi: false))
        #expect(parse("Factory Reset --forget-wifi")?.action == .factoryReset(forgetWiFi: true))
        #expect(error("factory") == "usage: factory reset [--forget-wifi]" && error("factory reset now") != nil)
        #expect(parse("ads off")?.action == .command(.setAds(false)) && parse("ads")?.action == .showAds)
        #expect(
            parse("preset 2")?.action == .command(.recallPreset(2))
                && parse("preset save 3")?.action == .command(.savePreset(3)))
        #expect(parse("stats watch")?.action == .stats(watch: true))
        #expect(
            parse("log level debug")?.action == .logLevel("debug")
                && parse("log tail 50")?.action == .logTail(lines: 50))
        #expect(
            parse("config set defaults.delay_step 200 ms")?.action
                == .configSet(key: "defaults.delay_step", value: "200 ms"))
        #expect(parse("tone on")?.action == .tone(on: true))
        #expect(
            parse("update")?.action == .update(version: nil)
                && parse("update 1.4.0-1~deb13")?.action == .update(version: "1.4.0-1~deb13"))
        #expect(parse("update --canary screen-1")?.action == .stagedUpdate(canary: "screen-1"))
        #expect(parse("update --canary screen-1 --now")?.action == .stagedUpdate(canary: "screen-1", now: true))
        #expect(parse("update --canary screen-1 --soon") == nil, "only --now follows the canary")
        #expect(parse("wifi hotspot password club lounge 7")?.action == .wifiHotspotPassword("club lounge 7"))
        #expect(parse("wifi hotspot password short") == nil)
        #expect(
            parse("group")?.action == .groupMembers && parse("group delay +1.5")?.action == .toGroup("delay +1.5")
                && parse("group channel Club Radio")?.action == .toGroup("channel Club Radio")
                && parse("group channel next")?.action == .toGroup("channel next")
                && parse("group update --canary screen2")?.action == .toGroup("update --canary screen2")
                && parse("group update --canary screen2 --now")?.action == .toGroup("update --canary screen2 --now"))
        #expect(
            parse("board list")?.action == .boardList
                && parse("board use pi4-hifiberry-dacplus")?.action == .chooseBoard("pi4-hifiberry-dacplus"))
        #expect(parse("   ") == nil, "an empty line asks nothing")
    }

    @Test func mistakesSayWhatToTypeInstead() {
        #expect(error("dealy 45") == "unknown command 'dealy'; did you mean 'delay'?; 'help' lists them")
        #expect(error("volume loud") == "'loud' is not a volume: 0-100, or +N / -N")
        #expect(error("preset save 12") == "a preset is 1-9; got '12'")
        #expect(error("log level verbose")?.hasPrefix("no log level 'verbose'") == true)
        #expect(error("tone") == "usage: tone on | tone off")
        // A version reaches apt and a box's name an MQTT topic: nothing else gets through.
        for version in ["latest", "1.4;reboot", "-1", "1.4$(id)", String(repeating: "1", count: 65)] {
            #expect(error("update \(version)")?.contains("is not a release's version") == true, "\(version)")
        }
        for name in ["#", "bar/+", "a$b", String(repeating: "a", count: 65)] {
            #expect(error("update --canary \(name)")?.contains("is not a box's MQTT client id") == true, "\(name)")
        }
        #expect(
            error("update --canary")
                == "usage: update [later] [VERSION] | update check | update daily [on|off] | update --canary BOX [--now]"
        )
        // A group's line is one every box takes: a delay set or a channel chosen, checked here.
        #expect(error("group delay soon")?.contains("soon") == true, "the delay's own words")
        for line in [
            "group volume 3", "group delay", "group channel remove Club", "group channel list", "group pause",
            "group update 1.4", "group update check",
        ] {
            #expect(
                error(line)
                    == "usage: group | group delay SECONDS | group channel NAME | group update --canary BOX [--now]",
                "\(line)")
        }
        #expect(error("group update --canary a/b")?.contains("is not a box's MQTT client id") == true)
        // A board's name reaches root's helper: a shipped file's name, never a path or an option.
        for name in [
            "../../etc/shadow", "/etc/delaybox/board", "--yes", "Pi4", "a b", String(repeating: "a", count: 65),
        ] {
            #expect(
                error("board use \(name)")?.contains("is not a board's name") == true
                    || error("board use \(name)") == "usage: board | board list | board use NAME", "\(name)")
        }
    }

    @Test func helpListsEveryCommandAndExplainsOne() throws {
        let all = try ConsoleLanguage.help(nil).get()
        for name in [
            "status", "delay", "volume", "pause", "resume", "channel", "mute", "ads", "preset", "events", "stats",
            "log", "config", "board", "gpio", "tone", "version",
        ] {
            #expect(all.contains("\n\(name) ") || all.hasPrefix("\(name) "), "\(name) in help")
        }
        #expect(
            try ConsoleLanguage.help("delay").get().hasPrefix(
                "usage: delay [SECONDS | +SECONDS | -SECONDS | live] [--json]"))
    }

    @Test func completionOffersCommandsThenTheirArguments() {
        #expect(ConsoleLanguage.completions(for: "").contains("status"))
        #expect(ConsoleLanguage.completions(for: "channel ", channels: ["City Radio"]).contains("City Radio"))
        #expect(ConsoleLanguage.completions(for: "log level ").contains("debug"))
        #expect(ConsoleLanguage.completions(for: "delay l").contains("live"))
    }

    @Test func garbageLinesAreErrorsNeverCrashes() {
        var random = SplitMix64(seed: 5)
        let words = [
            "delay", "volume", "preset", "save", "log", "level", "--json", "+", "-", "1e308", "nan", "-0",
            "99999999999999999999",
            "ms", "min", "channel", "config", "set", "ü", "\u{0}", "live", "on",
        ]
        var understood = 0
        for _ in 0..<100_000 {
            let line = (0..<Int.random(in: 0...5, using: &random)).map { _ in words.randomElement(using: &random)! }
                .joined(separator: " ")
            if case .success? = ConsoleLanguage.parse(line) { understood += 1 }
        }
        #expect(understood > 0 && understood < 100_000)
    }
}

@Suite(.timeLimit(.minutes(10))) struct SparklineTests {
    @Test func valuesAreScaledFromLowestToHighest() {
        #expect(Sparkline.render([0, 1, 2, 3, 4, 5, 6, 7]) == "▁▂▃▄▅▆▇█")
        #expect(Sparkline.render([5, 5, 5]) == "▁▁▁", "a flat line")
        #expect(Sparkline.render([1, .nan, 2]) == "▁ █")
        #expect(Sparkline.render([]) == "")
    }
}
