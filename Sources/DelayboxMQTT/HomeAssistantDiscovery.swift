import DelayboxConfig
import DelayboxJSON

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
        let device = Entity.Device(
            identifiers: ["delaybox_" + topics.nodeID], name: "Delaybox \(topics.clientID)",
            manufacturer: "Delaybox", model: config.name, swVersion: version)
        func entity(_ component: String, _ object: String, _ name: String, _ fill: (inout Entity) -> Void) -> Message {
            var entity = Entity(
                name: name, uniqueID: "\(topics.nodeID)_\(object)", objectID: "\(topics.nodeID)_\(object)",
                stateTopic: topics.status, commandTopic: component == "sensor" ? nil : topics.command,
                availabilityTopic: topics.availability, device: device)
            fill(&entity)
            return Message(
                topic: topics.discovery(component: component, object: object), payload: JSONText.encode(answer: entity))
        }
        return [
            entity("number", "delay", "Delay") {
                $0.commandTemplate = "delay {{ value }}"
                $0.valueTemplate = "{{ value_json.delay_ms / 1000 }}"
                ($0.min, $0.max, $0.step) = (
                    0, config.defaults.maxDelay.seconds, config.defaults.delayStep.seconds
                )
                ($0.unitOfMeasurement, $0.mode, $0.icon) = ("s", "box", "mdi:timer-sand")
            },
            entity("number", "volume", "Volume") {
                $0.commandTemplate = "volume {{ value }}"
                $0.valueTemplate = "{{ value_json.volume }}"
                ($0.min, $0.max, $0.step, $0.mode, $0.icon) = (0, 100, 1, "slider", "mdi:volume-high")
            },
            entity("select", "channel", "Channel") {
                $0.commandTemplate = "channel {{ value }}"
                $0.valueTemplate = "{{ value_json.channel }}"
                ($0.options, $0.icon) = (config.channels.channels.map(\.name), "mdi:radio")
            },
            entity("switch", "pause", "Paused") {
                ($0.payloadOn, $0.payloadOff, $0.stateOn, $0.stateOff) = ("pause", "resume", "ON", "OFF")
                $0.valueTemplate = "{{ 'ON' if value_json.state == 'paused' else 'OFF' }}"
                $0.icon = "mdi:pause"
            },
            entity("switch", "mute", "Muted") {
                ($0.payloadOn, $0.payloadOff, $0.stateOn, $0.stateOff) = ("mute on", "mute off", "ON", "OFF")
                $0.valueTemplate = "{{ 'ON' if value_json.muted else 'OFF' }}"
                $0.icon = "mdi:volume-off"
            },
            entity("sensor", "state", "State") {
                ($0.valueTemplate, $0.icon) = ("{{ value_json.state }}", "mdi:play-network")
            },
            entity("sensor", "now_playing", "Now playing") {
                ($0.valueTemplate, $0.icon) = ("{{ value_json.now_playing }}", "mdi:text")
            },
        ]
    }

    /// One entity's discovery payload (Home Assistant's MQTT discovery schema): what every
    /// entity has, then what its component takes; an absent field is left out.
    struct Entity: Encodable {
        struct Device: Encodable {
            var identifiers: [String]
            var name: String
            var manufacturer: String
            var model: String
            var swVersion: String

            enum CodingKeys: String, CodingKey {
                case identifiers, name, manufacturer, model
                case swVersion = "sw_version"
            }
        }

        var name: String
        var uniqueID: String
        var objectID: String
        var stateTopic: String
        var commandTopic: String?
        var availabilityTopic: String
        var payloadAvailable = "online"
        var payloadNotAvailable = "offline"
        var device: Device
        var commandTemplate: String?
        var valueTemplate: String?
        var min: Double?
        var max: Double?
        var step: Double?
        var unitOfMeasurement: String?
        var mode: String?
        var options: [String]?
        var payloadOn: String?
        var payloadOff: String?
        var stateOn: String?
        var stateOff: String?
        var icon: String?

        init(
            name: String, uniqueID: String, objectID: String, stateTopic: String, commandTopic: String?,
            availabilityTopic: String, device: Device
        ) {
            (self.name, self.uniqueID, self.objectID, self.stateTopic) = (name, uniqueID, objectID, stateTopic)
            (self.commandTopic, self.availabilityTopic, self.device) = (commandTopic, availabilityTopic, device)
        }

        enum CodingKeys: String, CodingKey {
            case name
            case uniqueID = "unique_id"
            case objectID = "object_id"
            case stateTopic = "state_topic"
            case commandTopic = "command_topic"
            case availabilityTopic = "availability_topic"
            case payloadAvailable = "payload_available"
            case payloadNotAvailable = "payload_not_available"
            case device
            case commandTemplate = "command_template"
            case valueTemplate = "value_template"
            case min, max, step
            case unitOfMeasurement = "unit_of_measurement"
            case mode, options
            case payloadOn = "payload_on"
            case payloadOff = "payload_off"
            case stateOn = "state_on"
            case stateOff = "state_off"
            case icon
        }
    }
}
