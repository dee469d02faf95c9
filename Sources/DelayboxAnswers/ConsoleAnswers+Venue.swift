import DelayboxConfig
import DelayboxConsole
import DelayboxEngine
import DelayboxMQTT
import DelayboxNetwork

/// `venue …`: a venue of boxes set up from the page (issue 70). The hub is the box whose
/// MQTT settings name its own broker (127.0.0.1) as the venue's manager; a box of the venue
/// names the hub's broker and a group. What root must do (the broker, chrony) is asked of
/// root's venue helper off the playout thread (`VenueJob`); the reply waits for it.
extension ConsoleAnswers {
    /// The box's part, as its MQTT settings say.
    var venueAnswer: VenueAnswer {
        guard let mqtt = config.mqtt, let group = mqtt.group else {
            return VenueAnswer(role: "none", group: nil, broker: config.mqtt?.brokerURL)
        }
        return VenueAnswer(role: Self.isHub(mqtt) ? "hub" : "box", group: group, broker: mqtt.brokerURL)
    }

    /// Whether `mqtt` is a hub's own settings: its own broker, as the venue's manager.
    static func isHub(_ mqtt: MQTTSettings) -> Bool {
        mqtt.host == "127.0.0.1" && mqtt.username == VenueBrokerFiles.manager && mqtt.group != nil
    }

    func venue(_ action: ConsoleRequest.Action, effects: inout [ConsoleEffect]) -> ConsoleReply? {
        guard facts.requestDirectory != nil, consoleConfigPath != nil else {
            return .refusal(
                .unavailable,
                "this box was not installed from the package: its broker and time are set up by hand (docs/mqtt.md)")
        }
        let hub = config.mqtt.map(Self.isHub) ?? false
        switch action {
        case .venueServe(let group):
            effects.append(.venue(.serve(group: group)))
        case .venueAdmit(let box):
            guard hub, let group = config.mqtt?.group else {
                return .refusal(.refused, "this box is not a venue's hub: `venue hub GROUP` makes it one")
            }
            guard let address = facts.lanAddress else {
                return .refusal(.unavailable, "this hub has no address on the LAN yet: a box could not reach it")
            }
            effects.append(.venue(.admit(box: box, hub: address, group: group)))
        case .venueJoin(let code):
            if hub { return .refusal(.refused, "this box is the venue's hub: `venue leave` first") }
            effects.append(.venue(.join(code)))
        default:
            guard config.mqtt?.group != nil else { return .refusal(.refused, "this box is in no venue") }
            effects.append(.venue(.leave))
        }
        return nil
    }

    /// The reply to a venue change once it is done.
    public func venueDone(_ outcome: VenueOutcome) -> ConsoleReply {
        switch outcome {
        case .done(let words): return .answer(ResultAnswer(venue: words))
        case .admitted(let code):
            return .answer(
                ResultAnswer(
                    venue: "'\(code.box)' may join: paste the code into its page (Box → Venue → Join) or its console",
                    code: code.text))
        case .failed(let why): return .refusal(.unavailable, why)
        }
    }
}
