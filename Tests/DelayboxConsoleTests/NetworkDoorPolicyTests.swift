import DelayboxCommands
import DelayboxConsole
import Foundation
import Testing

/// The one list of what the page and MQTT may do, on parsed console lines.
@Suite(.timeLimit(.minutes(10))) struct NetworkDoorPolicyTests {
    func refusal(_ line: String, _ door: NetworkDoorPolicy.Door = .mqtt) -> String? {
        guard let request = try? ConsoleLanguage.parse(line)?.get() else {
            Issue.record("'\(line)' does not parse")
            return nil
        }
        return NetworkDoorPolicy.refusal(request, door: door)
    }

    @Test func aListenersChangesPass() {
        for line in [
            "delay 45", "volume 30", "mute", "pause", "preset save 2", "ads off", "channel next", "status",
            "config get defaults.delay", "config get channels.0.url", "config save",
            "channel add Club https://club.example/live.pls",
            "config set defaults.delay 30 s", "config set defaults.volume 40", "config set channels.0.ads false",
            "config set channels.1.url HTTPS://club.example/a.mp3", "config set channels.0.name Club Radio",
            "config set channels.0.mute_music http://club.example/music.mp3", "update", "log tail 5",
            "config set audio.output_latency 200 ms", "update check", "update later", "update daily",
        ] {
            #expect(refusal(line) == nil, "\(line)")
            #expect(refusal(line, .page) == nil, "\(line)")
        }
    }

    @Test func whatNamesAFileADeviceAHostACredentialOrADoorIsTheOwners() {
        for line in [
            "config set audio.device wav:/var/lib/delaybox/web-password", "config set audio.fallback wav:/tmp/x",
            "config set mqtt.broker mqtt://attacker.example", "config set mqtt.password x",
            "config set web.port 8081", "config set web.enabled false", "config set console.device /dev/ttyS0",
            "config set remote.device /dev/input/event0", "config set gpio.chip gpiochip1",
            "config set board.clock rtc", "config set defaults.max_delay 60 min", "config set defaults.max_volume 100",
            "config set defaults.clip_cache_mb 4096", "config set channels.0.record true",
            "config set channels.0.ads_from evil.example", "config set channels x", "config set defaults x",
            "config set channels.0 x", "config set channels.0.url.x y", "config set defaults..delay 3",
            "config set Defaults.delay 3", "config set channels.0.url file:///etc/shadow",
            "config set audio.output_latency.x 3", "config set audio.periods 2",
            "config set channels.0.url alsa:hw:0", "config set channels.0.mute_music /var/lib/delaybox/state.json",
            "config set channels.0.url demo://commentary", "channel add Neighbour file:///etc/shadow",
            "channel add Neighbour http:/relative", "web", "web reset", "help", "stats watch",
            // The page resets the box in its own form, with the password typed again.
            "factory reset", "factory reset --forget-wifi",
            // Issue 66: the owner's keys are not read from the LAN or a broker either.
            "config show", "config get mqtt.password", "config get mqtt.password.x", "config get mqtt.password.",
            "config get wifi.hotspot_password", "config get audio.device", "config get mqtt", "config get channels",
            "config get defaults.max_delay", "config get channels.0.ads_from",
        ] {
            #expect(refusal(line) != nil, "MQTT: \(line)")
            #expect(refusal(line, .page) != nil, "page: \(line)")
        }
        #expect(refusal("config set audio.device null")?.contains("serial console, with delayboxctl") == true)
        #expect(
            refusal("config set channels.0.url " + "https://x.example/" + String(repeating: "a", count: 2_000)) != nil)
    }

    /// Issue 70: the nightly updates are switched on the page (its owner, logged in) or at
    /// the box; MQTT reads them in the status.
    @Test func dailyUpdatesAreSwitchedOnThePageNotByABroker() {
        for line in ["update daily off", "update daily on"] {
            #expect(refusal(line, .page) == nil, "\(line)")
            #expect(refusal(line)?.contains("MQTT reads them") == true, "\(line)")
            #expect(refusal(line, .group) != nil, "\(line)")
        }
    }

    /// Issue 66: a venue group's topic carries exactly a delay, a channel chosen and an update
    /// in stages — checked on the parsed line, not its first word (`channel add` got through).
    @Test func aGroupsTopicCarriesExactlyDelayChannelAndStagedUpdates() {
        for line in [
            "delay 30", "delay +1.5", "delay -2 s", "delay live", "channel next", "channel Second",
            "update --canary screen1", "update --canary screen1 --now",
        ] {
            #expect(refusal(line, .group) == nil, "\(line)")
        }
        for line in [
            "channel add Evil http://evil.example/live.mp3", "channel remove Club", "channel list", "channel",
            "update", "update 1.4.0-1~deb13", "volume 0", "pause", "mute", "ads off", "preset save 2",
            "config set defaults.delay 3 s", "config get defaults.delay", "status", "group delay 3", "board list",
            "wifi", "log tail 5",
        ] {
            #expect(refusal(line, .group)?.contains("a group command is") == true, "\(line)")
        }
        // The hotspot's password: the page's owner may change it, a broker's client may not.
        #expect(refusal("wifi hotspot password lounge-2026", .page) == nil)
        #expect(refusal("wifi hotspot password lounge-2026") != nil)
    }

    /// Issue 69: every command declares which network doors carry it (`ConsoleCommand.doors`
    /// has no default), and no policy lets an action through by default — a command
    /// nobody classified does not compile, an action nobody listed is refused.
    @Test func everyCommandIsClassifiedByNameNotByDefault() throws {
        let console = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/DelayboxConsole")
        let commands = console.appendingPathComponent("Commands")
        let files =
            try FileManager.default.contentsOfDirectory(atPath: commands.path).map {
                commands.appendingPathComponent($0)
            } + ["NetworkDoorPolicy.swift", "DoorPolicy.swift"].map { console.appendingPathComponent($0) }
        #expect(files.count > 20, "\(files)")
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            // A default may refuse (the group's topic, a key nobody listed); it never lets through.
            let letThrough = text.components(separatedBy: "default:").dropFirst().filter {
                let next = $0.drop { $0.isWhitespace }
                return next.hasPrefix("return nil") || next.hasPrefix("nil")
            }
            #expect(letThrough.isEmpty, "\(file.lastPathComponent) lets an action through by default")
        }
        let declaration = try String(
            contentsOf: console.appendingPathComponent("ConsoleCommand.swift"), encoding: .utf8)
        #expect(!declaration.contains("doors: DoorPolicy ="), "a command's door policy has no default")
    }

    /// A request no console line asked for — one a door built in code — has no command's
    /// policy to ask: every network door refuses it, whatever it is.
    @Test func aRequestNoCommandReadIsRefusedAtEveryNetworkDoor() {
        let built: [ConsoleRequest.Action] = [
            .status, .showDelay, .command(.setDelay(milliseconds: 3_000)), .configShow, .wifi, .board,
            .selectChannel("Club"), .stagedUpdate(canary: "screen1"),
        ]
        for action in built {
            for door: NetworkDoorPolicy.Door in [.page, .mqtt, .group] {
                #expect(NetworkDoorPolicy.refusal(ConsoleRequest(action), door: door) != nil, "\(action) at \(door)")
            }
        }
        // The same actions read from lines pass where their commands say.
        #expect(refusal("status", .page) == nil && refusal("delay 3", .group) == nil)
        #expect(
            NetworkDoorPolicy.admit("delay 3", door: .group)
                == .admitted(
                    ConsoleRequest(
                        .command(.setDelay(milliseconds: 3_000)), door: .group)))
        #expect(
            NetworkDoorPolicy.admit("config show", door: .page)
                == .refused(
                    "config show is the owner's (devices, hosts, doors): status, channel list and config get "
                        + "KEY (defaults.delay, channels.N.url, …) say what a listener changes"))
        #expect(NetworkDoorPolicy.admit("  ", door: .mqtt) == .empty)
    }

    /// The hardware is the owner's: the page they logged in to may choose a shipped board,
    /// a publisher on the venue's broker may not; either may read the list.
    @Test func aBoardIsChosenOnThePageNeverOverMQTT() {
        #expect(refusal("board use pi4-hifiberry-dacplus", .page) == nil)
        #expect(refusal("board use pi4-hifiberry-dacplus")?.contains("on the box's page or at the box") == true)
        #expect(refusal("board list") == nil && refusal("board list", .page) == nil)
        // A page speaks for the venue group; a broker's client publishes on its topic itself.
        #expect(refusal("group delay 30", .page) == nil)
        #expect(refusal("group delay 30")?.contains("delaybox/group/GROUP/command") == true)
    }
}
