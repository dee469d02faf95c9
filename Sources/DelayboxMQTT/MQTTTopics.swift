import DelayboxConfig

/// The box's topics (docs/mqtt.md): its own under the prefix, its group's, and Home
/// Assistant's discovery topics.
public struct MQTTTopics: Sendable, Equatable {
    /// What a group's command says on a box in none.
    public static let inNoGroup = "this box is in no group: mqtt.group in the board config (docs/mqtt.md)"

    /// The client id the broker knows the box by: `mqtt.client_id`, else the hostname.
    public let clientID: String
    /// `mqtt.topic_prefix`, else `delaybox/<client id>`.
    public let prefix: String
    /// `delaybox/group/<group>`, when the box is in one.
    public let groupPrefix: String?

    public init(settings: MQTTSettings, hostname: String) {
        clientID = settings.clientID ?? hostname
        prefix = settings.topicPrefix ?? "delaybox/" + Self.level(clientID)
        groupPrefix = settings.group.map { "delaybox/group/" + $0 }
    }

    /// Retained JSON: `delayboxctl status --json`'s keys.
    public var status: String { prefix + "/status" }
    /// Retained `online` / `offline` (the broker publishes `offline` as the will).
    public var availability: String { prefix + "/availability" }
    /// Stream events as they are heard (not retained).
    public var event: String { prefix + "/event" }
    /// A console line to carry out.
    public var command: String { prefix + "/command" }
    /// The console's JSON answer to each command.
    public var reply: String { prefix + "/reply" }
    /// A console line every box of the group carries out (a delay, a channel, an update
    /// in stages).
    public var groupCommand: String? { groupPrefix.map { $0 + "/command" } }
    /// Retained: what a box of the group says of its release (`MemberRelease`), which the
    /// others read when it is the canary of an update in stages.
    public func memberRelease(of box: String) -> String? { groupPrefix.map { $0 + "/release/" + Self.level(box) } }
    /// Every member's release, as a box of the group subscribes to them.
    public var memberReleases: String? { groupPrefix.map { $0 + "/release/+" } }

    /// Not retained: when a box of the group takes a run of the stream to have been live
    /// (`VenueFigure`), which the others compare with their own to play as one.
    public func memberVenue(of box: String) -> String? { groupPrefix.map { $0 + "/venue/" + Self.level(box) } }
    /// Every member's venue figures, as a box of the group subscribes to them.
    public var memberVenues: String? { groupPrefix.map { $0 + "/venue/+" } }

    /// Not retained: a box of the group's state, channel and delay (`GroupMember`), with each
    /// status it publishes, for the others' pages.
    public func member(_ box: String) -> String? { groupPrefix.map { $0 + "/member/" + Self.level(box) } }
    /// Every member's, as a box of the group subscribes to them.
    public var members: String? { groupPrefix.map { $0 + "/member/+" } }

    /// Home Assistant's discovery topic for one entity of this box.
    public func discovery(component: String, object: String) -> String {
        "homeassistant/\(component)/\(nodeID)/\(object)/config"
    }

    /// The client id as Home Assistant's node id (letters, digits, `_` and `-` only).
    public var nodeID: String {
        String(clientID.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
    }

    /// A hostname as one topic level: the MQTT wildcards and `/` replaced.
    static func level(_ name: String) -> String {
        String(name.map { "+#/".contains($0) ? "_" : $0 })
    }
}
