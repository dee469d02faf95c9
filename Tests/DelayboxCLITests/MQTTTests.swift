import DelayboxAnswers
import DelayboxApp
import DelayboxConfig
import DelayboxMQTT
import DelayboxTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `delaybox run` on a real mosquitto broker on loopback, `mosquitto_sub` and
/// `mosquitto_pub` as the outside world (docs/mqtt.md): status and availability, commands
/// and replies, Home Assistant's discovery, a venue group, a broker restart, TLS, refused
/// credentials and a flood of garbage.
@Suite(
    .serialized,
    .enabled(
        if: MosquittoBroker.isAvailable, "needs mosquitto and mosquitto-clients (deploy/setup-host.sh installs them)"),
    .timeLimit(.minutes(10)))
struct MQTTTests {
    /// One box: the simulated host's board (its demo channel and a second one), output to
    /// null, the given `mqtt:` section; its log is stderr.
    final class Box {
        let appliance: BoxUnderTest

        /// - Parameter demo: the first channel's URL (the demo's events every 90 s, or on the
        ///   cycle it names).
        /// - Parameter sections: more of the board config, at its top level.
        init(
            mqtt: String, name: String = "box", demo: String = "demo://commentary", environment: [String: String] = [:],
            sections: String = ""
        ) throws {
            appliance = try BoxUnderTest(
                executables: BoxUnderTest.debugBuild(root: CommandLineTests.root), name: "mqtt-\(name)",
                environment: environment
            ) { _ in
                """
                extends: \(CommandLineTests.root.appendingPathComponent("board-configs/simulated-host.yaml").path)
                audio:
                  device: null
                channels:
                  - name: Demo
                    url: \(demo)
                  - name: Second
                    url: demo://commentary
                defaults:
                  delay: 2 s
                mqtt:
                \(mqtt.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
                \(sections)
                """
            }
        }

        var process: any RunningProgram { appliance.process }
        var directory: URL { appliance.directory }
        var logText: String { appliance.log }

        /// Waits up to `seconds` for `text` to be said (by the box, or by `source`) `count` times.
        static func wait(for text: String, count: Int = 1, seconds: Double = 10, in source: () -> String) -> Bool {
            Eventually.holds(within: seconds, every: 0.05) { source().components(separatedBy: text).count - 1 >= count }
        }

        /// SIGTERM, and the exit.
        func stop() { appliance.stop() }

        /// `delayboxctl` with `arguments` and `--json`, as a dictionary.
        func ctl(_ arguments: [String]) throws -> [String: Any] {
            let outcome = try appliance.ctl(arguments + ["--json"])
            return try #require(Self.object(outcome.output), "\(outcome.output)\(outcome.errors)")
        }

        /// `status --json`, read as the console's own answer type.
        func status() throws -> StatusAnswer {
            let outcome = try appliance.ctl(["status", "--json"])
            return try JSONDecoder().decode(StatusAnswer.self, from: Data(outcome.output.utf8))
        }

        static func object(_ text: String) -> [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        }
    }

    static func field(_ payload: String, _ key: String) -> String? {
        Box.object(payload)?[key].map { "\($0)" }
    }

    /// Retained status with `delayboxctl status --json`'s keys, `online`, and every kind of
    /// command carried out and answered; `offline` when the box stops.
    @Test func statusAvailabilityAndEveryCommandKindGoThroughARealBroker() throws {
        let broker = try MosquittoBroker()
        let watcher = try broker.watch("delaybox/#")
        let box = try Box(mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: box1")
        let prefix = "delaybox/box1"
        #expect(watcher.wait(for: prefix + "/availability") { $0 == "online" } != nil, "\(box.logText)")
        let first = try #require(watcher.wait(for: prefix + "/status"), "\(box.logText)")
        let keys = Set(try #require(Box.object(first)).keys)
        let local = Set(try box.ctl(["status"]).keys)
        #expect(throws: Never.self, "MQTT's status is the console's answer type") {
            try JSONDecoder().decode(StatusAnswer.self, from: Data(first.utf8))
        }
        #expect(
            local.subtracting(["building_delay_ms"]) == keys.subtracting(["building_delay_ms"]),
            "MQTT \(keys) vs delayboxctl \(local)")
        // The status is retained: a client that comes later gets it at once.
        let late = try ExternalTool.run(
            ["mosquitto_sub"] + broker.clientArguments + ["-t", prefix + "/status", "-C", "1", "-W", "3"])
        #expect(late.contains("\"delay_ms\""), "retained: \(late)")

        let commands: [(line: String, status: (String) -> Bool)] = [
            ("delay 7", { Self.field($0, "delay_ms") == "7000" }),
            ("delay +0.5", { Self.field($0, "delay_ms") == "7500" }),
            ("volume 30", { Self.field($0, "volume") == "30" }),
            ("volume -5", { Self.field($0, "volume") == "25" }),
            ("mute on", { Self.field($0, "muted") == "1" || Self.field($0, "muted") == "true" }),
            ("mute off", { Self.field($0, "muted") == "0" || Self.field($0, "muted") == "false" }),
            ("pause", { Self.field($0, "state") == "paused" }),
            ("resume", { Self.field($0, "state") != "paused" }),
            ("channel next", { Self.field($0, "channel") == "Second" }),
            ("channel Demo", { Self.field($0, "channel") == "Demo" }),
        ]
        for command in commands {
            try broker.publish(prefix + "/command", command.line)
            let reply = watcher.wait(for: prefix + "/reply") { Self.field($0, "command") == command.line }
            #expect(
                reply != nil && Self.field(reply!, "error") == nil,
                "\(command.line): \(reply ?? "no reply")\n\(box.logText)")
            #expect(
                watcher.wait(for: prefix + "/status", where: command.status) != nil,
                "\(command.line): \(watcher.payloads(prefix + "/status").suffix(2))")
        }
        // Refused with the console's reason, nothing changed.
        try broker.publish(prefix + "/command", "delay 99 min")
        let refused = try #require(watcher.wait(for: prefix + "/reply") { Self.field($0, "command") == "delay 99 min" })
        #expect(Self.field(refused, "error") != nil || Self.field(refused, "result") != "ok", "\(refused)")
        try broker.publish(prefix + "/command", "volume loud")
        let error = watcher.wait(for: prefix + "/reply") { Self.field($0, "command") == "volume loud" }
        #expect(error.flatMap { Self.field($0, "error") } != nil, "\(error ?? "no reply")")

        box.stop()
        #expect(
            watcher.payloads(prefix + "/availability").last == "offline",
            "\(watcher.payloads(prefix + "/availability"))")
        #expect(box.logText.contains("MQTT: connected to mqtt://127.0.0.1:\(broker.port) as box1"), "\(box.logText)")
    }

    /// Stream events as they are heard: the demo's on a 9 s cycle (muted at 2 s, unmuted at
    /// 3.5 s, an ad break at 6 s of stream time), each with its stream time and when it was
    /// heard, not retained.
    @Test func streamEventsArePublishedAsTheyAreHeard() throws {
        let broker = try MosquittoBroker()
        let watcher = try broker.watch("delaybox/events/event")
        let started = Date()
        let box = try Box(
            mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: events", demo: "demo://commentary?cycle=9")
        #expect(
            watcher.wait(for: "delaybox/events/event", seconds: 20) { Self.field($0, "kind") == "ad" } != nil,
            "\(box.logText)")
        // The type the box writes them as.
        let events = try watcher.payloads("delaybox/events/event").map {
            try JSONDecoder().decode(HeardEvent.self, from: Data($0.utf8))
        }
        let kinds = events.map(\.kind)
        #expect(kinds.starts(with: ["muted", "unmuted", "ad"]), "\(kinds)")
        let times = events.map(\.streamS)
        #expect(
            times.count >= 3 && abs(times[1] - times[0] - 1.5) < 0.01 && abs(times[2] - times[1] - 2.5) < 0.01,
            "stream times 1.5 s and 2.5 s apart: \(times)")
        #expect(
            events.first?.transition == "reached" && events.first?.detail == "streamer muted", "\(events)")
        let heard = try #require(events.first?.heardUnixMs)
        // Heard after the delay (2 s) from the box's start, and not in the future.
        let heardSeconds = Double(heard) / 1000 - started.timeIntervalSince1970
        #expect(
            heardSeconds > 2 && heardSeconds < Date().timeIntervalSince(started) + 0.5,
            "heard \(heardSeconds) s after the start")
        let late = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/mosquitto_sub"),
            broker.clientArguments + ["-t", "delaybox/events/event", "--retained-only", "-W", "1"])
        #expect(late.output.isEmpty, "events are not retained: \(late.output)")
    }

    /// The box killed (no goodbye): the broker says `offline` for it — the will.
    @Test func theWillSaysOfflineWhenTheBoxVanishes() throws {
        let broker = try MosquittoBroker()
        let watcher = try broker.watch("delaybox/+/availability")
        let box = try Box(mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: willing")
        #expect(watcher.wait(for: "delaybox/willing/availability") { $0 == "online" } != nil, "\(box.logText)")
        box.process.kill()
        #expect(
            watcher.wait(for: "delaybox/willing/availability", seconds: 5) { $0 == "offline" } != nil,
            "\(watcher.lines)")
    }

    /// Home Assistant's MQTT discovery: one retained config per entity, each with only keys
    /// Home Assistant documents for its platform (number, select, switch, sensor), one device.
    @Test func discoveryDescribesTheBoxAsAHomeAssistantDevice() throws {
        let broker = try MosquittoBroker()
        let box = try Box(mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: den")
        let watcher = try broker.watch("delaybox/den/availability")
        #expect(watcher.wait(for: "delaybox/den/availability") { $0 == "online" } != nil, "\(box.logText)")
        // Retained: a subscriber that comes now (as Home Assistant starting) gets all seven.
        let text = try ExternalTool.run(
            ["mosquitto_sub"] + broker.clientArguments + ["-v", "-t", "homeassistant/#", "-C", "7", "-W", "5"])
        var configs: [String: [String: Any]] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            configs[String(parts[0])] = Box.object(String(parts[1]))
        }
        let common: Set = [
            "name", "unique_id", "object_id", "availability_topic", "payload_available", "payload_not_available",
            "device", "icon", "state_topic", "value_template",
        ]
        let documented: [String: Set<String>] = [
            "number": common.union([
                "command_topic", "command_template", "min", "max", "step", "mode", "unit_of_measurement",
            ]),
            "select": common.union(["command_topic", "command_template", "options"]),
            "switch": common.union(["command_topic", "payload_on", "payload_off", "state_on", "state_off"]),
            "sensor": common,
        ]
        let expected = [
            "number/den/delay", "number/den/volume", "select/den/channel", "switch/den/pause", "switch/den/mute",
            "sensor/den/state", "sensor/den/now_playing",
        ]
        #expect(Set(configs.keys) == Set(expected.map { "homeassistant/\($0)/config" }), "\(configs.keys)")
        for (topic, config) in configs {
            let platform = String(topic.split(separator: "/")[1])
            let unknown = Set(config.keys).subtracting(documented[platform] ?? [])
            #expect(unknown.isEmpty, "\(topic): keys Home Assistant does not document for \(platform): \(unknown)")
            #expect(config["state_topic"] as? String == "delaybox/den/status")
            let device = config["device"] as? [String: Any]
            #expect((device?["identifiers"] as? [String]) == ["delaybox_den"], "one device for every entity: \(topic)")
        }
        let delay = try #require(configs["homeassistant/number/den/delay/config"])
        #expect(delay["step"] as? Double == 0.1, "the board's delay step, in seconds")
        #expect(delay["max"] as? Double == 300, "the board's max_delay")
        #expect(delay["command_template"] as? String == "delay {{ value }}")
        #expect(configs["homeassistant/select/den/channel/config"]?["options"] as? [String] == ["Demo", "Second"])
        #expect(configs["homeassistant/switch/den/mute/config"]?["payload_on"] as? String == "mute on")
    }

    /// A venue: two boxes in group `bar`; a delay and a channel set on the group are
    /// followed by both, each reporting its own; what a group may not do is refused.
    @Test func aGroupOfTwoBoxesFollowsOneDelay() throws {
        let broker = try MosquittoBroker()
        let watcher = try broker.watch("delaybox/#")
        let one = try Box(mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: screen1\ngroup: bar", name: "one")
        let two = try Box(mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: screen2\ngroup: bar", name: "two")
        for box in ["screen1", "screen2"] {
            #expect(
                watcher.wait(for: "delaybox/\(box)/availability") { $0 == "online" } != nil,
                "\(one.logText)\n\(two.logText)")
        }
        try broker.publish("delaybox/group/bar/command", "delay 4.5")
        try broker.publish("delaybox/group/bar/command", "channel Second")
        for box in ["screen1", "screen2"] {
            #expect(
                watcher.wait(for: "delaybox/\(box)/status") {
                    Self.field($0, "delay_ms") == "4500" && Self.field($0, "channel") == "Second"
                } != nil,
                "\(box): \(watcher.payloads("delaybox/\(box)/status").suffix(2))")
        }
        // Each reports the delay its own jack hears: once both play, they agree.
        for box in ["screen1", "screen2"] {
            let playing = watcher.wait(for: "delaybox/\(box)/status", seconds: 15) {
                Self.field($0, "state") == "playing" && Self.field($0, "delay_ms") == "4500"
            }
            let heard = playing.flatMap { Box.object($0)?["heard_delay_ms"] as? Double }
            #expect(heard.map { abs($0 - 4_500) < 5 } == true, "\(box): \(playing ?? "not playing")")
        }
        // The same from one box of the group (its page's "Every box of the group"): published
        // on the group's topic, carried out by both; the group is in each status.
        #expect(try one.status().group == "bar")
        let sent = try one.ctl(["group", "delay", "6"])
        #expect(sent["group"] as? String == "delay 6: sent to the group bar", "\(sent)")
        #expect(watcher.payloads("delaybox/group/bar/command").contains("delay 6"))
        for box in ["screen1", "screen2"] {
            #expect(
                watcher.wait(for: "delaybox/\(box)/status") { Self.field($0, "delay_ms") == "6000" } != nil,
                "\(box): \(watcher.payloads("delaybox/\(box)/status").suffix(2))")
        }
        // Each box hears the others' reports on the group's member topics (`group`).
        let heard = Eventually.value(within: 10, every: 0.2) { () -> [String: Any]? in
            let answer = try? one.ctl(["group"])
            let boxes = answer?["boxes"] as? [[String: Any]] ?? []
            return boxes.first { $0["box"] as? String == "screen2" && $0["delay_ms"] as? Int == 6_000 }
        }
        #expect(heard?["channel"] as? String == "Second", "\(String(describing: try? one.ctl(["group"])))")
        // And the release it runs (the hub's page shows which box runs what before an update).
        #expect(heard?["release"] as? String == DelayboxVersion.string, "\(String(describing: heard))")
        // A stranger's report on another's topic, or with a delay of a year, is not taken.
        try broker.publish(
            "delaybox/group/bar/member/screen9",
            #"{"box":"screen2","state":"playing","channel":"Fake","delay_ms":1}"#)
        try broker.publish(
            "delaybox/group/bar/member/screen9",
            #"{"box":"screen9","state":"playing","channel":"Fake","delay_ms":31536000000}"#)
        try broker.publish("delaybox/group/bar/command", "volume 0")
        #expect(try one.ctl(["config"])["mqtt"] as? String == "mqtt://127.0.0.1:\(broker.port) group bar")
        let refusal = watcher.wait(for: "delaybox/screen1/reply") { Self.field($0, "error")?.contains("group") == true }
        #expect(refusal != nil, "\(watcher.payloads("delaybox/screen1/reply"))")
        #expect(try one.status().volume != 0 && two.status().volume != 0)
        let boxes = try one.ctl(["group"])["boxes"] as? [[String: Any]] ?? []
        #expect(boxes.map { $0["box"] as? String } == ["screen2"], "\(boxes)")
        #expect(boxes.first?["channel"] as? String == "Second", "\(boxes)")
    }

    /// Issue 70: a box of a group takes part in the room's alignment only while chrony says
    /// its wall clock is the room's to a millisecond — a real chrony on loopback, a client
    /// of a `local stratum 1` server. Before chrony answers, the box says why in `status`
    /// and its log and publishes no venue figure (it would move the others by its clock's
    /// error); once chrony follows the server it publishes; when chrony stops answering
    /// (frozen) or goes, it stops.
    @Test(.enabled(if: ChronyPair.isAvailable, "needs chrony (deploy/setup-host.sh installs it)"))
    func aBoxAlignsWithTheRoomOnlyWhileChronySaysItsClockIsTheRooms() throws {
        let broker = try MosquittoBroker()
        let chrony = try ChronyPair()
        let watcher = try broker.watch("delaybox/group/bar/venue/#")
        let box = try Box(
            mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: screen1\ngroup: bar",
            environment: chrony.environment)
        let figures = { watcher.payloads("delaybox/group/bar/venue/screen1").count }
        func clock(within seconds: Double, _ holds: @escaping (StatusAnswer) -> Bool) -> StatusAnswer? {
            Eventually.value(within: seconds, every: 0.2) { (try? box.status()).flatMap { holds($0) ? $0 : nil } }
        }
        let waiting = clock(within: 15) { $0.state == "playing" && $0.uptimeS >= 8 }
        #expect(
            waiting?.venueClock == "not aligning: chrony does not answer (506 Cannot talk to daemon)", "\(box.logText)")
        #expect(waiting?.venueClockErrorMs == nil)
        #expect(figures() == 0, "\(watcher.payloads("delaybox/group/bar/venue/screen1"))")
        #expect(box.logText.contains("the room's alignment waits: chrony does not answer"), "\(box.logText)")

        try chrony.start()
        let agreed = clock(within: 20) { $0.venueClock?.hasPrefix("within ") == true }
        #expect(agreed?.venueClock?.hasSuffix(" ms of 127.0.0.1") == true, "\(chrony.tracking())\n\(chrony.log)")
        #expect(agreed?.venueClockErrorMs.map { $0 <= 1 } == true)
        #expect(watcher.wait(for: "delaybox/group/bar/venue/screen1", seconds: 15) != nil, "\(box.logText)")
        #expect(box.logText.contains("the room's alignment begins: the clock is within"))

        // A chronyd that stops answering is no word that the clock is right.
        chrony.freeze()
        #expect(clock(within: 15) { $0.venueClock?.hasPrefix("not aligning: chrony does not answer") == true } != nil)
        try chrony.start()
        #expect(clock(within: 20) { $0.venueClock?.hasPrefix("within ") == true } != nil, "\(chrony.log)")
        chrony.stop()
        #expect(clock(within: 15) { $0.venueClock?.hasPrefix("not aligning: chrony does not answer") == true } != nil)
        // Figures come every 5 s while it aligns: none in 8 s once it says it does not (after
        // a second for one already on its way).
        Thread.sleep(forTimeInterval: 1)
        let before = figures()
        Thread.sleep(forTimeInterval: 8)
        #expect(figures() == before, "\(watcher.payloads("delaybox/group/bar/venue/screen1"))")
    }

    /// Issue 70: the ACL docs/mqtt.md shows is the one a venue's hub writes
    /// (`VenueBrokerFiles`, made from the box's own topics).
    @Test func theVenueACLIsTheOneTheDocsShow() throws {
        let doc = try String(
            contentsOf: CommandLineTests.root.appendingPathComponent("docs/mqtt.md"), encoding: .utf8)
        let block = try #require(
            doc.components(separatedBy: "acl_file` in mosquitto.conf").dropFirst().first?
                .components(separatedBy: "```").dropFirst().first)
        #expect(block.drop { $0 == "\n" } == VenueBrokerFiles.acl(group: nil))
    }

    /// Issue 70: on a real mosquitto with the venue's ACL and a user per box, a box writes
    /// only its own topics and figures and reads its commands and its group's; a forged
    /// status, another box's command, a group command are dropped by the broker; only the
    /// manager commands a box.
    @Test func theVenueBrokerLetsEachBoxWriteOnlyItsOwn() throws {
        let passwords = ["screen1": "one-pass", "screen2": "two-pass", VenueBrokerFiles.manager: "manager-pass"]
        // The test's own probe topic, for the manager's watcher to know it is subscribed.
        let broker = try MosquittoBroker(
            passwords: passwords, acl: VenueBrokerFiles.acl(group: "bar") + "topic readwrite delaybox-test/#\n",
            clientUser: VenueBrokerFiles.manager)
        func publish(as user: String, _ topic: String, _ payload: String) throws {
            try ExternalTool.run([
                "mosquitto_pub", "-h", "127.0.0.1", "-p", String(broker.port), "-u", user, "-P", passwords[user]!,
                "-q", "1", "-t", topic, "-m", payload,
            ])
        }
        let everything = try broker.watch("#")
        // screen2's own view: what it may read of everything.
        let seenBy2 = broker.directory.appendingPathComponent("screen2.txt")
        let subscriber = try LaunchedProgram(
            URL(fileURLWithPath: "/usr/bin/mosquitto_sub"),
            [
                "-h", "127.0.0.1", "-p", String(broker.port), "-u", "screen2", "-P", "two-pass", "-v", "-q", "1", "-t",
                "#",
            ],
            output: .file(seenBy2))
        defer { subscriber.kill() }
        let seen = { (try? String(contentsOf: seenBy2, encoding: .utf8)) ?? "" }
        #expect(
            try Eventually.value(within: 10, every: 0.3) { () -> Bool? in
                try publish(as: VenueBrokerFiles.manager, "delaybox/screen2/command", "status")
                return seen().contains("delaybox/screen2/command status") ? true : nil
            } == true, "screen2 reads its commands")

        try publish(as: "screen1", "delaybox/screen2/status", "forged")
        try publish(as: "screen1", "delaybox/screen2/command", "delay 1")
        try publish(as: "screen1", "delaybox/group/bar/command", "delay 2")
        try publish(as: "screen1", "delaybox/group/bar/venue/screen2", "forged")
        try publish(as: "screen1", "delaybox/group/other/venue/screen1", "another group")
        try publish(as: "screen1", "delaybox/group/bar/venue/screen1", "figure")
        try publish(as: "screen1", "delaybox/screen1/status", "mine")
        #expect(everything.wait(for: "delaybox/screen1/status") == "mine")
        #expect(everything.payloads("delaybox/group/bar/venue/screen1") == ["figure"])
        for dropped in [
            "delaybox/screen2/status", "delaybox/group/bar/command", "delaybox/group/bar/venue/screen2",
            "delaybox/group/other/venue/screen1",
        ] {
            #expect(everything.payloads(dropped).isEmpty, "\(dropped): \(everything.lines)")
        }
        #expect(everything.payloads("delaybox/screen2/command").allSatisfy { $0 == "status" })
        // screen2 hears screen1's figure, never screen1's status.
        #expect(Eventually.holds(within: 5) { seen().contains("delaybox/group/bar/venue/screen1 figure") })
        #expect(!seen().contains("delaybox/screen1/status"), "\(seen())")
    }

    /// A venue updated in stages (`update --canary screen1` on the group's topic): screen1
    /// asks its updater at once, screen2 waits, ignores the broker's old report and
    /// screen1's progress, and asks for exactly the version screen1 plays once it plays it;
    /// asked again, a canary that rolled back holds screen2 where it is. The package's
    /// updater and healer are played by the test: it reads the update requests the boxes
    /// leave and writes the healer's release lines (the virtual boards run the real ones).
    @Test func aGroupUpdatesInStagesBehindItsCanary() throws {
        let broker = try MosquittoBroker()
        let watcher = try broker.watch("delaybox/#")
        let places = try ["one", "two"].map { name -> (run: URL, release: URL) in
            let directory = try ExternalTool.temporaryDirectory("stages-\(name)")
            let run = directory.appendingPathComponent("run"), release = directory.appendingPathComponent("release")
            for made in [run, release] {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            }
            return (run, release)
        }
        defer { for place in places { try? FileManager.default.removeItem(at: place.run.deletingLastPathComponent()) } }
        func healer(_ box: Int, says line: String) throws {
            try (line + "\n").write(
                to: places[box].release.appendingPathComponent("status"), atomically: true, encoding: .utf8)
        }
        func request(_ box: Int) -> String? {
            try? String(contentsOf: places[box].run.appendingPathComponent("update-request"), encoding: .utf8)
        }
        try healer(0, says: "1.2 playing")
        try healer(1, says: "1.2 playing")
        let boxes = try [("one", "screen1"), ("two", "screen2")].enumerated().map { index, box in
            try Box(
                mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: \(box.1)\ngroup: bar", name: box.0,
                environment: [
                    "RUNTIME_DIRECTORY": places[index].run.path,
                    "DELAYBOX_RELEASE_DIRECTORY": places[index].release.path,
                ])
        }
        let logs = { boxes.map(\.logText).joined(separator: "\n") }
        let canaryRelease = watcher.wait(for: "delaybox/group/bar/release/screen1") {
            Self.field($0, "release") == "1.2 playing"
        }
        let running = try #require(canaryRelease.flatMap { Self.field($0, "version") }, "\(logs())")
        #expect(
            watcher.wait(for: "delaybox/group/bar/release/screen2") { Self.field($0, "release") == "1.2 playing" }
                != nil)

        try broker.publish("delaybox/group/bar/command", "update")
        #expect(
            watcher.wait(for: "delaybox/screen2/reply") { Self.field($0, "error")?.contains("in stages") == true }
                != nil)
        try broker.publish("delaybox/group/bar/command", "update --canary screen1")
        #expect(Box.wait(for: "asked") { request(0) == nil ? "" : "asked" }, "screen1 asks its updater: \(logs())")
        // Issue 66: naming a box does not restart it mid-match: it starts in its window or quiet.
        #expect(request(0) == "later\n", "for the newest release, started in the update window")
        let waiting = watcher.wait(for: "delaybox/screen2/status") {
            Self.field($0, "update")?.hasPrefix("waiting for canary screen1") == true
        }
        #expect(waiting != nil, "\(watcher.payloads("delaybox/screen2/status").suffix(2))")
        #expect(
            watcher.wait(for: "delaybox/screen1/status") { Self.field($0, "update") == "canary: 1.2 playing" } != nil,
            "the canary's update follows its own release: \(watcher.payloads("delaybox/screen1/status").suffix(1))")

        try healer(0, says: "checking 9.9")
        #expect(
            watcher.wait(for: "delaybox/screen2/status") {
                Self.field($0, "update")?.hasSuffix("screen1 says 'checking 9.9'") == true
            } != nil)
        #expect(
            watcher.wait(for: "delaybox/screen1/status") { Self.field($0, "update") == "canary: checking 9.9" } != nil)
        #expect(request(1) == nil, "screen2 waits while screen1 checks its release")
        try healer(0, says: "\(running) playing")
        #expect(
            watcher.wait(for: "delaybox/screen2/status") {
                Self.field($0, "update") == "updating to \(running), which canary screen1 plays"
            } != nil,
            "\(watcher.payloads("delaybox/screen2/status").suffix(2))")
        #expect(request(1) == "later " + running + "\n", "screen2 asks for exactly the canary's version")

        // Asked again: the canary rolls back, and screen2 stays.
        try FileManager.default.removeItem(at: places[1].run.appendingPathComponent("update-request"))
        // A status published after this command: the first round's "waiting for canary" is
        // in the history too, and taking it for this one let the rollback below be reported
        // before screen2 took its baseline, which then held it as old news (a flake).
        let earlier = watcher.payloads("delaybox/screen2/status").count
        try broker.publish("delaybox/group/bar/command", "update --canary screen1")
        #expect(
            Eventually.holds(within: 30) {
                watcher.payloads("delaybox/screen2/status").dropFirst(earlier).contains {
                    Self.field($0, "update")?.hasPrefix("waiting for canary screen1") == true
                }
            }, "\(watcher.payloads("delaybox/screen2/status").suffix(2))")
        try healer(0, says: "rolled back: 9.9 failed its check, \(running) plays again (41 s)")
        let held = watcher.wait(for: "delaybox/screen2/status") {
            Self.field($0, "update")?.hasPrefix("held: screen1's update went wrong: rolled back") == true
        }
        #expect(held != nil, "\(watcher.payloads("delaybox/screen2/status").suffix(2))")
        #expect(request(1) == nil, "screen2 did not update")
        #expect(logs().contains("update in stages held, this box stays on \(running)"), "\(logs())")
    }

    /// The broker restarted under a playing box: one warning, the box reconnects with
    /// back-off, says `online` again and takes commands; the audio never stopped.
    @Test func aBrokerRestartIsSurvived() throws {
        let broker = try MosquittoBroker()
        let box = try Box(mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: phoenix")
        let watcher = try broker.watch("delaybox/phoenix/#")
        #expect(watcher.wait(for: "delaybox/phoenix/availability") { $0 == "online" } != nil, "\(box.logText)")
        #expect(
            Eventually.holds(within: 15) { (try? box.status())?.state == "playing" }, "\(box.logText)")
        broker.stop()
        #expect(
            Box.wait(for: "trying again in", seconds: 10) { box.logText }, "the box saw the broker go: \(box.logText)")
        try broker.start()
        let again = try broker.watch("delaybox/phoenix/#")
        #expect(
            again.wait(for: "delaybox/phoenix/availability", seconds: 15) { $0 == "online" } != nil, "\(box.logText)")
        // (Below the 2 s it plays at: held already, so the audio goes on without building.)
        try broker.publish("delaybox/phoenix/command", "delay 1.5")
        #expect(
            again.wait(for: "delaybox/phoenix/status") { Self.field($0, "delay_ms") == "1500" } != nil, "\(box.logText)"
        )
        let log = box.logText
        #expect(
            log.components(separatedBy: "MQTT mqtt://127.0.0.1:\(broker.port): connection lost").count - 1 == 1,
            "\(log)")
        #expect(log.components(separatedBy: "MQTT: connected to").count - 1 == 2, "\(log)")
        let status = try box.status()
        #expect(status.state == "playing", "\(status)")
    }

    /// No broker when the box starts: it plays, says so once, and joins when the broker
    /// comes up.
    @Test func aBrokerDownAtTheStartIsJoinedWhenItComesUp() throws {
        let broker = try MosquittoBroker()
        broker.stop()
        let box = try Box(mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: early")
        #expect(
            Box.wait(for: "trying again in", seconds: 10) { box.logText },
            "it says the broker is not there: \(box.logText)")
        #expect(try box.status().channel == "Demo", "it plays without the broker")
        try broker.start()
        let watcher = try broker.watch("delaybox/early/availability")
        #expect(
            watcher.wait(for: "delaybox/early/availability", seconds: 10) { $0 == "online" } != nil, "\(box.logText)")
        let log = box.logText
        #expect(log.components(separatedBy: "Connection refused").count - 1 == 1, "said once: \(log)")
    }

    /// TLS with a test CA: the box verifies the broker against `ca_file` and works; with
    /// the system's CAs instead it refuses the broker and says so, and plays on.
    @Test func tlsWithATestCA() throws {
        let broker = try MosquittoBroker(tls: true)
        let ca = try #require(broker.caFile)
        let watcher = try broker.watch("delaybox/#")
        let box = try Box(
            mqtt: "broker: mqtts://127.0.0.1:\(broker.port)\nca_file: \(ca)\nclient_id: secure", name: "tls")
        #expect(watcher.wait(for: "delaybox/secure/status") != nil, "\(box.logText)\n\(broker.log.suffix(800))")
        let untrusting = try Box(
            mqtt: "broker: mqtts://127.0.0.1:\(broker.port)\nclient_id: doubter", name: "untrusting")
        #expect(Box.wait(for: "MQTT mqtts://127.0.0.1:\(broker.port):") { untrusting.logText }, "\(untrusting.logText)")
        #expect(watcher.payloads("delaybox/doubter/status").isEmpty)
        #expect(try untrusting.status().channel == "Demo", "it plays on")
    }

    /// A wrong password: the broker's refusal in the log, once, and the box plays on.
    @Test func refusedCredentialsAreSaidOnce() throws {
        let broker = try MosquittoBroker(passwords: ["venue": "right"])
        let box = try Box(
            mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: locked\nusername: venue\npassword: wrong")
        // Refused twice (the broker's log says so for each attempt): said once all the same.
        #expect(Box.wait(for: "disconnected, not authorised", count: 2) { broker.log }, "\(broker.log.suffix(800))")
        let log = box.logText
        #expect(log.components(separatedBy: "the broker refused the connection").count - 1 == 1, "\(log)")
        #expect(log.lowercased().contains("not authori"), "\(log)")
        #expect(!log.contains("wrong"), "the password is not logged")
        #expect(try box.ctl(["config", "get", "mqtt.password"])["value"] as? String == "(set; not shown)")
        #expect(try box.status().channel == "Demo", "it plays on")
    }

    /// What a publisher on the venue's broker cannot do (issue 56): a retained command is
    /// not carried out at the box's start, an oversized payload never reaches the box, an
    /// owner's setting (a file as the output, another broker) is refused in the console's
    /// words, and a canary that is no member of the group is refused.
    @Test func aPublisherChangesOnlyWhatAListenerChanges() throws {
        let broker = try MosquittoBroker()
        let prefix = "delaybox/door1"
        try broker.publish(prefix + "/command", "volume 7", retain: true)
        let watcher = try broker.watch("delaybox/#")
        let box = try Box(mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: door1\ngroup: hall")
        #expect(watcher.wait(for: prefix + "/availability") { $0 == "online" } != nil, "\(box.logText)")
        #expect(
            Box.wait(for: "a retained command on \(prefix)/command is ignored") { box.logText }, "\(box.logText)")
        #expect(try box.status().volume != 7, "the retained command was carried out")

        // 64 KB on the command topic: the broker is told the box takes no such packet.
        try broker.publish(prefix + "/command", String(repeating: "x", count: 65_536))
        try broker.publish(prefix + "/command", "volume 9")
        let volume = watcher.wait(for: prefix + "/reply") { Self.field($0, "command") == "volume 9" }
        #expect(volume.flatMap { Self.field($0, "error") } == nil && volume != nil, "\(volume ?? "no reply")")
        #expect(
            !watcher.payloads(prefix + "/reply").contains { $0.contains("65536") },
            "the oversized payload reached the box: \(watcher.payloads(prefix + "/reply"))")

        for line in [
            "config set audio.device wav:/tmp/delaybox-web-password", "config set mqtt.broker mqtt://elsewhere.example",
            "config set channels.0.url file:///etc/passwd",
        ] {
            try broker.publish(prefix + "/command", line)
            let reply = watcher.wait(for: prefix + "/reply") { Self.field($0, "command") == line }
            #expect(
                reply.flatMap { Self.field($0, "error") }?.contains("the owner's") == true
                    || reply.flatMap { Self.field($0, "error") }?.contains("http") == true,
                "\(line): \(reply ?? "no reply")")
        }
        #expect(try box.ctl(["config", "get", "audio.device"])["value"] as? String == "null")

        try broker.publish("delaybox/group/hall/command", "update --canary ghost")
        let canary = watcher.wait(for: prefix + "/reply") { Self.field($0, "command") == "update --canary ghost" }
        #expect(
            canary.flatMap { Self.field($0, "error") }?.contains("not a box of this group") == true,
            "\(canary ?? "no reply")")
    }

    /// Issue 66, as a neighbour on the venue's broker tried it: no answer on any topic, no
    /// refusal's "there:" and no log line carries a secret (the broker's password, the
    /// hotspot's); the owner's keys are not read over MQTT; a group's topic adds no channel.
    @Test func aNeighbourReadsNoSecretAndAGroupAddsNoChannel() throws {
        let secrets = ["venue-pass-8491", "lounge-hotspot-5527"]
        let broker = try MosquittoBroker(passwords: ["venue": secrets[0]])
        let watcher = try broker.watch("delaybox/#")
        let box = try Box(
            mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: door2\ngroup: hall\nusername: venue\n"
                + "password: \(secrets[0])",
            sections: "wifi:\n  hotspot_password: \(secrets[1])")
        #expect(watcher.wait(for: "delaybox/door2/availability") { $0 == "online" } != nil, "\(box.logText)")
        for line in [
            "config get wifi.hotspot_password", "config get mqtt.password", "config get mqtt.password.x",
            "config get mqtt.password.", "config get mqtt", "config show", "wifi",
        ] {
            try broker.publish("delaybox/door2/command", line)
            let reply = watcher.wait(for: "delaybox/door2/reply") { Self.field($0, "command") == line }
            #expect(reply.flatMap { Self.field($0, "error") } != nil, "\(line): \(reply ?? "no reply")")
        }
        try broker.publish("delaybox/group/hall/command", "channel add Evil http://evil.example/live.mp3")
        let added = watcher.wait(for: "delaybox/door2/reply") {
            Self.field($0, "command")?.hasPrefix("channel add") == true
        }
        #expect(added.flatMap { Self.field($0, "error") }?.contains("a group command is") == true, "\(added ?? "")")
        let channels = try box.ctl(["channel", "list"])
        #expect(!"\(channels)".contains("Evil"), "\(channels)")
        // At the box the owner reads that a secret is set, and a refusal's summary hides it too.
        #expect(try box.ctl(["config", "get", "wifi.hotspot_password"])["value"] as? String == "(set; not shown)")
        let below = try box.appliance.ctl(["config", "get", "mqtt.password.x"])
        #expect(below.errors.contains("(set; not shown)"), "\(below.output)\(below.errors)")
        let everything = watcher.lines.joined(separator: "\n") + box.logText + below.errors
        for secret in secrets { #expect(!everything.contains(secret), "\(secret) was shown") }
    }

    /// 10,000 garbage payloads (invalid commands, control characters, binary, oversized,
    /// empty): each refused or dropped, the box still playing, and a good command after
    /// them still carried out.
    @Test func tenThousandGarbagePayloadsLeaveTheBoxPlaying() throws {
        let broker = try MosquittoBroker()
        let box = try Box(mqtt: "broker: mqtt://127.0.0.1:\(broker.port)\nclient_id: sturdy")
        let watcher = try broker.watch("delaybox/sturdy/#")
        #expect(watcher.wait(for: "delaybox/sturdy/availability") { $0 == "online" } != nil, "\(box.logText)")
        var generator = SystemRandomNumberGenerator()
        let words = [
            "delay", "volume", "channel", "preset", "config", "mute", "ads", "log", "xyzzy", "", "--json", "🙂",
        ]
        let lines = (0..<9_990).map { index -> String in
            switch index % 5 {
            case 0:
                return (0..<Int.random(in: 1...6, using: &generator)).map { _ in words.randomElement(using: &generator)!
                }.joined(separator: " ")
            case 1: return String(repeating: "x", count: 300 + index % 200)
            case 2: return "delay \(Int.random(in: -1_000_000...1_000_000, using: &generator)) parsecs"
            case 3: return "\u{7}\u{1b}[2J" + String(index)
            default: return "config set \(index) \(index)"
            }
        }
        try broker.publish("delaybox/sturdy/command", lines.joined(separator: "\n"), lines: true)
        for index in 0..<6 { try broker.publish("delaybox/sturdy/command", "\u{FFFD}\(index)") }
        // Once the flood has drained — no reply for a second (what came while 64 waited was
        // dropped) — binary. (A fixed 2 s was too short on a loaded machine: the binary
        // payloads were dropped with the flood and no reply said "not UTF-8".)
        var answered = -1
        #expect(
            Eventually.holds(within: 60, every: 1) {
                let count = watcher.payloads("delaybox/sturdy/reply").count
                defer { answered = count }
                return count == answered
            }, "the flood drained")
        for size in [0, 64, 4_096, 65_536] {
            let file = box.directory.appendingPathComponent("binary-\(size)")
            try Data((0..<size).map { index in index == 0 ? 0xFF : UInt8.random(in: 0...255, using: &generator) })
                .write(to: file)
            try broker.publish("delaybox/sturdy/command", file: file)
        }
        try broker.publish("delaybox/sturdy/command", "delay 6")
        #expect(
            watcher.wait(for: "delaybox/sturdy/status", seconds: 60) { Self.field($0, "delay_ms") == "6000" } != nil,
            "replies: \(watcher.payloads("delaybox/sturdy/reply").suffix(3)) status: \(watcher.payloads("delaybox/sturdy/status").suffix(1)) \(box.logText.suffix(1_000))"
        )
        // Refused with their reasons (those not dropped as a flood: the log says how many).
        let replies = watcher.payloads("delaybox/sturdy/reply").joined(separator: "\n")
        for reason in ["not UTF-8", "a command is at most 256", "control characters", "unknown command"] {
            #expect(replies.contains(reason), "no reply says '\(reason)'")
        }
        // It builds the longer delay, then plays again.
        #expect(
            try Eventually.holds(within: 15, every: 0.2) { try box.status().state == "playing" },
            "\(box.logText.suffix(1_000))")
    }
}
