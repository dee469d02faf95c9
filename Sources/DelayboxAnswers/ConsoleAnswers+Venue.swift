import DelayboxConfig
import DelayboxConsole
import DelayboxEngine
import DelayboxMQTT
import DelayboxNetwork
import DelayboxUnits

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

    mutating func venue(_ action: ConsoleRequest.Action, effects: inout [ConsoleEffect], now: Instant) -> ConsoleReply?
    {
        guard facts.requestDirectory != nil, consoleConfigPath != nil else {
            return .refusal(
                .unavailable,
                "this box was not installed from the package: its broker and time are set up by hand (docs/mqtt.md)")
        }
        let hub = config.mqtt.map(Self.isHub) ?? false
        switch action {
        case .venueServe(let group):
            effects.append(.venue(.serve(group: group, pagePort: config.web?.port ?? 80)))
        case .venueAdmit(let box):
            guard hub, let group = config.mqtt?.group else {
                return .refusal(.refused, "this box is not a venue's hub: `venue hub GROUP` makes it one")
            }
            guard let address = facts.lanAddress else {
                return .refusal(.unavailable, "this hub has no address on the LAN yet: a box could not reach it")
            }
            effects.append(.venue(.admit(box: box, hub: address, group: group)))
        case .venueHubs:
            effects.append(.venue(.hear))
        case .venueJoin(let code):
            if hub { return .refusal(.refused, "this box is the venue's hub: `venue leave` first") }
            effects.append(.venue(.join(code)))
        case .venueClaim(let host, let port, let key):
            if hub { return .refusal(.refused, "this box is the venue's hub: `venue leave` first") }
            effects.append(.venue(.claim(hub: VenueHubAddress(host: host, port: port), key: key)))
        case .venueHandOver(let key):
            guard hub else { return .refusal(.refused, "this box is not a venue's hub") }
            switch venueKeys.handOver(key, now: now) {
            case .success(let code): return .answer(ResultAnswer(code: code.text))
            case .failure(let problem): return .refusal(.refused, problem.description)
            }
        default:
            guard config.mqtt?.group != nil else { return .refusal(.refused, "this box is in no venue") }
            effects.append(.venue(.leave))
        }
        return nil
    }

    /// The reply to a venue change once it is done; a box let in gets a key to its code.
    public mutating func venueDone(_ outcome: VenueOutcome, now: Instant) -> ConsoleReply {
        switch outcome {
        case .done(let words): return .answer(ResultAnswer(venue: words))
        case .admitted(let code):
            let key = VenueJoinKeys.shown(venueKeys.mint(for: code, now: now))
            return .answer(
                ResultAnswer(
                    venue:
                        "'\(code.box)' may join: on its page (Box → Venue) choose this hub and type the key \(key) (good for 15 minutes, once), or paste the code",
                    code: code.text, passkey: key))
        case .heard(let hubs):
            let answer = VenueHubsAnswer(hubs: hubs)
            return .answer(answer, text: answer.text)
        case .failed(let why): return .refusal(.unavailable, why)
        }
    }
}
