import DelayboxConfig

/// The retained discovery messages that make a box a Home Assistant device (its MQTT
/// integration, docs/mqtt.md): the delay and the volume as numbers, the channel as a
/// select, pause and mute as switches, the state and what is playing as sensors. Every
/// entity commands through the console's language on `<prefix>/command` and reads
/// `<prefix>/status`.
public struct HomeAssistantDiscovery: Sendable {
    public struct Message: Sendable, Equatable {
        public let topic: String
        /// The JSON payload (published retained).
        public let payload: String
    }

    public let topics: MQTTTopics
    public let config: BoardConfig
    public let version: String

    public init(topics: MQTTTopics, config: BoardConfig, version: String) {
        self.topics = topics
        self.config = config
        self.version = version
    }

    public var messages: [Message] {
        let stepSeconds = Double(config.defaults.delayStepMs) / 1000
        let entities: [(component: String, object: String, name: String, fields: [String: Any])] = [
            (
                "number", "delay", "Delay",
                [
                    "command_template": "delay {{ value }}", "value_template": "{{ value_json.delay_ms / 1000 }}",
                    "min": 0, "max": Double(config.defaults.maxDelayMs) / 1000, "step": stepSeconds,
                    "unit_of_measurement": "s", "mode": "box", "icon": "mdi:timer-sand",
                ]
            ),
            (
                "number", "volume", "Volume",
                [
                    "command_template": "volume {{ value }}", "value_template": "{{ value_json.volume }}",
                    "min": 0, "max": 100, "step": 1, "mode": "slider", "icon": "mdi:volume-high",
                ]
            ),
            (
                "select", "channel", "Channel",
                [
                    "command_template": "channel {{ value }}", "value_template": "{{ value_json.channel }}",
                    "options": config.channels.channels.map(\.name), "icon": "mdi:radio",
                ]
            ),
            (
                "switch", "pause", "Paused",
                [
                    "payload_on": "pause", "payload_off": "resume", "state_on": "ON", "state_off": "OFF",
                    "value_template": "{{ 'ON' if value_json.state == 'paused' else 'OFF' }}", "icon": "mdi:pause",
                ]
            ),
            (
                "switch", "mute", "Muted",
                [
                    "payload_on": "mute on", "payload_off": "mute off", "state_on": "ON", "state_off": "OFF",
                    "value_template": "{{ 'ON' if value_json.muted else 'OFF' }}", "icon": "mdi:volume-off",
                ]
            ),
            ("sensor", "state", "State", ["value_template": "{{ value_json.state }}", "icon": "mdi:play-network"]),
            (
                "sensor", "now_playing", "Now playing",
                ["value_template": "{{ value_json.now_playing }}", "icon": "mdi:text"]
            ),
        ]
        return entities.map { entity in
            var payload = entity.fields
            payload["name"] = entity.name
            payload["unique_id"] = "\(topics.nodeID)_\(entity.object)"
            payload["object_id"] = "\(topics.nodeID)_\(entity.object)"
            payload["state_topic"] = topics.status
            if entity.component != "sensor" { payload["command_topic"] = topics.command }
            payload["availability_topic"] = topics.availability
            payload["payload_available"] = "online"
            payload["payload_not_available"] = "offline"
            payload["device"] = device
            return Message(
                topic: topics.discovery(component: entity.component, object: entity.object),
                payload: JSONText.encode(payload))
        }
    }

    /// The device block every entity shares: one device per box.
    private var device: [String: Any] {
        [
            "identifiers": ["delaybox_" + topics.nodeID], "name": "Delaybox \(topics.clientID)",
            "manufacturer": "Delaybox",
            "model": config.name, "sw_version": version,
        ]
    }
}
