import DelayboxConfig
import DelayboxConfigFile
import DelayboxMQTT
import DelayboxTestSupport
import DelayboxUnits
import Foundation
import Testing

/// The `mqtt:` section, and the pure parts of MQTT: topics, command payloads, when the
/// status is published.
@Suite(.timeLimit(.minutes(10))) struct MQTTConfigTests {
    let boards = BoardConfigTests()

    func load(_ section: String) throws -> (config: BoardConfig?, diagnostics: [String]) {
        let directory = try boards.directory(["board.yaml": BoardConfigTests.minimal + section])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConfigFile.load(directory.appendingPathComponent("board.yaml").path)
        return (
            result.config,
            result.diagnostics.map { $0.description.replacingOccurrences(of: directory.path + "/", with: "") }
        )
    }

    @Test func aBrokerWithEverySettingIsRead() throws {
        let result = try load(
            """
            mqtt:
              broker: mqtts://broker.venue.lan:8884
              ca_file: /etc/delaybox/venue-ca.pem
              client_id: bar-screen-2
              username: delaybox
              password: s3cret
              topic_prefix: venue/bar/screen2
              group: bar
              venue_clock: own

            """)
        let mqtt = try #require(result.config?.mqtt, "\(result.diagnostics)")
        #expect(
            mqtt
                == MQTTSettings(
                    host: "broker.venue.lan", port: 8884, tls: true, caFile: "/etc/delaybox/venue-ca.pem",
                    clientID: "bar-screen-2",
                    username: "delaybox", password: Secret("s3cret"), topicPrefix: "venue/bar/screen2", group: "bar",
                    venueClock: .own))
        let plain = try #require(try load("mqtt:\n  broker: mqtt://10.0.0.2\n").config?.mqtt)
        #expect((plain.host, plain.port, plain.tls, plain.venueClock) == ("10.0.0.2", 1883, false, .chrony))
        #expect(try load("").config?.mqtt == nil, "no section, no MQTT")
    }

    @Test(arguments: [
        ("mqtt:\n  client_id: x\n", "'mqtt.broker' is missing"),
        ("mqtt:\n  broker: http://broker\n", "is not an MQTT broker URL"),
        ("mqtt:\n  broker: mqtt://broker:99999\n", "the port is 1-65535"),
        ("mqtt:\n  broker: mqtt://user:pw@broker\n", "credentials go in mqtt.username"),
        ("mqtt:\n  broker: mqtt://broker\n  ca_file: /ca.pem\n", "write the broker as mqtts://"),
        ("mqtt:\n  broker: mqtt://broker\n  password: x\n", "'mqtt.password' without 'mqtt.username'"),
        ("mqtt:\n  broker: mqtt://broker\n  group: bar/#\n", "'mqtt.group' is 'bar/#'"),
        ("mqtt:\n  broker: mqtt://broker\n  topic_prefix: a//b\n", "'mqtt.topic_prefix' is 'a//b'"),
        ("mqtt:\n  broker: mqtt://broker\n  keepalive: 5\n", "mqtt.keepalive"),
        (
            "mqtt:\n  broker: mqtt://broker\n  venue_clock: ntp\n",
            "'mqtt.venue_clock' cannot be 'ntp' (allowed: chrony, own)"
        ),
    ])
    func aWrongSettingIsReportedWithItsPlace(section: String, message: String) throws {
        let result = try load(section)
        #expect(result.config == nil)
        #expect(result.diagnostics.contains { $0.contains("error") && $0.contains(message) }, "\(result.diagnostics)")
    }

    /// Home Assistant's discovery payloads (typed now) are the fields they always were:
    /// every entity's shared ones, its component's own, the device.
    @Test func discoveryPayloadsAreTheFieldsHomeAssistantReads() throws {
        let config = try #require(
            try load("mqtt:\n  broker: mqtt://b\n  client_id: den\ndefaults:\n  delay_step: 500 ms\n").config)
        let topics = MQTTTopics(settings: try #require(config.mqtt), hostname: "x")
        let messages = HomeAssistantDiscovery(topics: topics, config: config, version: "1.2").messages
        let shared: [String: Any] = [
            "state_topic": "delaybox/den/status", "availability_topic": "delaybox/den/availability",
            "payload_available": "online", "payload_not_available": "offline",
            "device": [
                "identifiers": ["delaybox_den"], "name": "Delaybox den", "manufacturer": "Delaybox",
                "model": config.name, "sw_version": "1.2",
            ],
        ]
        let delay: [String: Any] = [
            "name": "Delay", "unique_id": "den_delay", "object_id": "den_delay",
            "command_topic": "delaybox/den/command", "command_template": "delay {{ value }}",
            "value_template": "{{ value_json.delay_ms / 1000 }}", "min": 0,
            "max": config.defaults.maxDelay.seconds, "step": 0.5, "unit_of_measurement": "s", "mode": "box",
            "icon": "mdi:timer-sand",
        ]
        let state: [String: Any] = [
            "name": "State", "unique_id": "den_state", "object_id": "den_state",
            "value_template": "{{ value_json.state }}", "icon": "mdi:play-network",
        ]
        #expect(messages.count == 7)
        #expect(messages.first?.topic == "homeassistant/number/den/delay/config")
        #expect(messages.first?.payload == DictionaryJSON.encode(delay.merging(shared) { $1 }))
        #expect(
            messages.first { $0.topic.hasSuffix("/state/config") }?.payload
                == DictionaryJSON.encode(state.merging(shared) { $1 }))
    }

    @Test func topicsFollowTheClientIDAndThePrefix() {
        let plain = MQTTTopics(settings: MQTTSettings(host: "b", port: 1883), hostname: "den+pi")
        #expect(
            plain.status == "delaybox/den_pi/status" && plain.command == "delaybox/den_pi/command"
                && plain.groupCommand == nil)
        #expect(plain.discovery(component: "number", object: "delay") == "homeassistant/number/den_pi/delay/config")
        let venue = MQTTTopics(
            settings: MQTTSettings(host: "b", port: 1883, clientID: "screen.2", topicPrefix: "venue/bar", group: "bar"),
            hostname: "x")
        #expect(venue.availability == "venue/bar/availability" && venue.groupCommand == "delaybox/group/bar/command")
        #expect(venue.nodeID == "screen_2", "Home Assistant's node ids are letters, digits, _ and -")
    }

    @Test func aPayloadIsOneShortLineOfText() {
        #expect(MQTTCommandLine.parse(Array("  delay 45 \n".utf8)) == .success("delay 45"))
        #expect(MQTTCommandLine.parse(Array("channel next".utf8), group: true) == .success("channel next"))
        for (payload, reason) in [
            ([0xFF, 0x41], "not UTF-8"), (Array(repeating: 0x61, count: 300), "at most 256"), ([], "empty"),
            (Array("delay 4\u{1b}[2J".utf8), "control characters"),
        ] as [([UInt8], String)] {
            guard case .failure(let refusal) = MQTTCommandLine.parse(payload) else {
                Issue.record("\(payload) was taken")
                continue
            }
            #expect(refusal.description.contains(reason), "\(refusal)")
        }
        guard case .failure(let refusal) = MQTTCommandLine.parse(Array("volume 0".utf8), group: true) else {
            Issue.record("a group set the volume")
            return
        }
        #expect(refusal.description.contains("delay, channel or update --canary BOX"))
        #expect(
            MQTTCommandLine.parse(Array("update --canary screen1".utf8), group: true)
                == .success("update --canary screen1"))
        guard case .failure(let together) = MQTTCommandLine.parse(Array("update".utf8), group: true) else {
            Issue.record("a group updated every box at once")
            return
        }
        #expect(together.description.contains("in stages"))
        #expect(MQTTCommandLine.parse(Array("update".utf8)) == .success("update"), "one box's own topic may")
    }

    /// At once on the first and on a change, but never twice within the gap; every 30 s
    /// without one; at once again after a reconnection.
    @Test func theStatusIsPublishedOnChangeAtMostEveryGapAndEvery30Seconds() {
        let at = { (ms: Int64) in Instant.zero + .milliseconds(ms) }
        var pacing = StatusPacing(minimumGap: .milliseconds(100), refresh: .seconds(30))
        #expect(pacing.isDue(at: .zero) && pacing.wait(from: at(5_000)) == .zero, "the first is due at once")
        pacing.published(at: at(1_000))
        #expect(pacing.due == at(31_000), "nothing changed: the refresh")
        #expect(!pacing.isDue(at: at(30_999)) && pacing.wait(from: at(30_000)) == .seconds(1))
        pacing.changed()
        #expect(pacing.due == at(1_100), "a change right after: not before the gap")
        pacing.published(at: at(1_100))
        pacing.changed()
        pacing.changed()
        #expect(pacing.due == at(1_200), "two changes, one message")
        #expect(pacing.wait(from: at(9_000)) == .zero, "overdue: no wait, never a negative one")
        pacing.published(at: at(5_000))
        pacing.reconnected()
        #expect(pacing.isDue(at: at(5_000)) && pacing.wait(from: at(5_000)) == .zero)
    }
}
