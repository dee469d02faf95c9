import DelayboxAnswers
import DelayboxConfig
import DelayboxConfigFile
import DelayboxMQTT
import DelayboxNetwork
import DelayboxPlatform
import DelayboxState
import DelayboxSystem
import DelayboxUnits
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A venue change carried out on the saver's thread (issue 70): root's venue helper asked
/// (`VenueRequest`) and waited for — it restarts the broker and chrony, seconds — then this
/// box's MQTT settings written to the saved config (`config.yaml`, mode 0600: it holds the
/// broker's password), replacing its whole `mqtt:` part, so the box reports to its venue
/// from the config's next reading. Nothing is written when root refuses.
public struct VenueErrand: Sendable {
    /// The service's runtime directory, where root's helper is asked.
    let requestDirectory: String
    /// The saved config laid over the site file (`config save`'s).
    let configPath: String
    let clock: any MonotonicClock
    /// How long root's helper may take: a broker and a time server restarted.
    let patience: TimeAmount
    /// The hub's broker port on the LAN (root's helper listens on the same).
    let brokerPort: Int

    public init(
        requestDirectory: String, configPath: String, clock: any MonotonicClock, patience: TimeAmount = .seconds(90),
        brokerPort: Int = 1883
    ) {
        (self.requestDirectory, self.configPath, self.clock) = (requestDirectory, configPath, clock)
        (self.patience, self.brokerPort) = (patience, brokerPort)
    }

    public func perform(_ job: VenueJob) -> VenueOutcome {
        // A saved config that no longer reads is refused before root changes anything:
        // replacing it would lose the owner's other saved keys.
        let saved: ConfigNode?
        do throws(SavedConfig.Unreadable) {
            saved = try job.savesSettings ? SavedConfig.document(at: configPath) : nil
        } catch {
            return .failed(error.description)
        }
        switch job {
        case .serve(let group, let pagePort):
            let password = VenueJoinCode.newPassword()
            if let refused = ask(.serve(group: group, managerPassword: password, pagePort: pagePort)) {
                return .failed(refused)
            }
            return save(
                over: saved,
                mqtt: [
                    ("broker", "mqtt://127.0.0.1:\(brokerPort)"), ("username", VenueBrokerFiles.manager),
                    ("password", password), ("group", group), ("venue_clock", VenueClockSource.own.rawValue),
                ], done: "this box is the hub of venue '\(group)': `venue add BOX` lets a box in")
        case .admit(let box, let hub, let group):
            let password = VenueJoinCode.newPassword()
            if let refused = ask(.admit(user: box, password: password)) { return .failed(refused) }
            return .admitted(
                VenueJoinCode(hub: hub, port: brokerPort, group: group, box: box, password: password))
        case .hear:
            return Self.hubsHeard()
        case .claim(let hub, let key):
            // The saved config was found readable above, before the key is spent.
            switch Self.joinCode(from: hub, key: key) {
            case .success(let code): return perform(.join(code))
            case .failure(let problem): return .failed(problem.description)
            }
        case .join(let code):
            if let refused = ask(.follow(hub: code.hub)) { return .failed(refused) }
            let host = code.hub.contains(":") ? "[\(code.hub)]" : code.hub
            return save(
                over: saved,
                mqtt: [
                    ("broker", "mqtt://\(host):\(code.port)"), ("client_id", code.box), ("username", code.box),
                    ("password", code.password), ("group", code.group),
                    ("venue_clock", VenueClockSource.chrony.rawValue),
                ],
                done:
                    "this box is '\(code.box)' of venue '\(code.group)': it plays as one with the room once chrony says its clock is the hub's"
            )
        case .leave:
            if let refused = ask(.leave) { return .failed(refused) }
            return save(over: saved, mqtt: nil, done: "this box is in no venue")
        }
    }

    /// The hubs that answer a question on the LAN within a second and a half.
    static func hubsHeard() -> VenueOutcome {
        let id = UInt16.random(in: 1...UInt16.max)
        let replies: [MulticastQuestion.Reply]
        do throws(Errno) {
            replies = try MulticastQuestion.ask(
                VenueHubSearch.query(id: id), group: VenueHubSearch.group, port: VenueHubSearch.port,
                listening: .milliseconds(1_500))
        } catch {
            return .failed("no hub can be heard: this box is on no network (\(error))")
        }
        return .heard(VenueHubSearch.hubs(in: replies.map { (bytes: $0.bytes, source: $0.source) }, id: id))
    }

    /// The join code the hub's page hands over for `key` (its owner's consent), or why not.
    static func joinCode(from hub: VenueHubAddress, key: String) -> Result<VenueJoinCode, HelperRequestFrame.Problem> {
        let answer: FormPost.Answer
        do throws(FormPost.Failure) {
            answer = try FormPost.send(
                "key=\(key)", to: "/api/venue/claim", host: hub.host, port: hub.port,
                headers: [("X-Delaybox-CSRF", "venue-join")])
        } catch {
            return .failure(.init("the hub at \(hub.authority) could not be asked: \(error)"))
        }
        return claimed(status: answer.status, body: answer.body, from: hub)
    }

    /// The join code in the hub's answer (`status`, `body`), or why there is none: the
    /// hub's own words at most 200 characters, one line, no control characters — anyone on
    /// the LAN may answer as a hub, and its words reach the owner's console and page.
    static func claimed(status: Int, body: [UInt8], from hub: VenueHubAddress)
        -> Result<VenueJoinCode, HelperRequestFrame.Problem>
    {
        struct Claimed: Decodable {
            var code: String?
            var error: String?
        }
        let claimed = try? JSONDecoder().decode(Claimed.self, from: Data(body))
        guard status == 200, let text = claimed?.code else {
            var why = "it answered \(status)"
            if let said = claimed?.error {
                let scalars = said.unicodeScalars.filter { (scalar: Unicode.Scalar) -> Bool in
                    scalar.value >= 0x20 && scalar.value != 0x7f
                }
                why = String(String.UnicodeScalarView(scalars.prefix(200)))
            }
            return .failure(.init("the hub at \(hub.authority) gave no join code: \(why)"))
        }
        return VenueJoinCode.parse(text)
    }

    /// Asks root's venue helper; nil when done, else why not.
    private func ask(_ request: VenueRequest) -> String? {
        HelperMailbox(
            directory: requestDirectory, requestName: VenueRequest.fileName, answerName: VenueRequest.answerFileName
        ).ask(
            within: patience, clock: clock, helper: ("root's venue helper", "delaybox-venue.path"),
            pause: { pause in
                usleep(UInt32(clamping: pause.nanoseconds / 1_000))
                return true
            }, text: request.text(id:))
    }

    /// The saved config (`saved`, as read before root was asked) with its `mqtt:` part
    /// replaced by `mqtt` (nil: none).
    private func save(over saved: ConfigNode?, mqtt: [(String, String)]?, done: String) -> VenueOutcome {
        let origin = SourceLocation(file: "venue", line: 1, column: 1)
        var document = (saved ?? .mapping([], origin)).removing("mqtt")
        if let mqtt {
            let settings = ConfigNode.mapping(
                mqtt.map { (ConfigNode.Key($0.0, at: origin), ConfigNode.scalar($0.1, origin)) }, origin)
            document = document.merged(with: .mapping([(ConfigNode.Key("mqtt", at: origin), settings)], origin))
        }
        let text =
            "# Written by the console's `config save` and the venue's setup; laid over the site file at start.\n"
            + ConfigFile.yaml(document)
        do {
            try DurableFile.write(Array(text.utf8), to: configPath, mode: 0o600)
        } catch {
            return .failed("the venue is set up, but \(configPath) cannot be written: \(error)")
        }
        return .done(done)
    }
}

extension VenueJob {
    /// Whether the job writes this box's own MQTT settings (letting another box in does not).
    fileprivate var savesSettings: Bool {
        if case .admit = self { false } else { true }
    }
}
