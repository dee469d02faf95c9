import DelayboxAudio
import DelayboxConfig
import DelayboxConsole
import DelayboxEngine
import DelayboxMQTT
import DelayboxNetwork
import DelayboxTestSupport
import Testing

@testable import DelayboxAnswers

/// Issue 70: what `venue …` means, without a box — the part the MQTT settings say, what is
/// refused before root is asked, and the change handed over as a `VenueJob`.
@Suite(.timeLimit(.minutes(10))) struct VenueAnswersTests {
    let facts = ConsoleAnswersTests.StandInFacts()
    let rig: EngineRig

    init() throws { rig = try EngineRig(configuration: EngineConfiguration()) }

    /// Answers for a box whose MQTT settings are `mqtt`, installed from the package unless
    /// `packaged` is false.
    func answers(mqtt: MQTTSettings?, packaged: Bool = true) throws -> (ConsoleAnswers, BoxSnapshot, ChannelChoice) {
        let lineup = try ChannelLineup([Channel(name: "Club", streamURL: "http://club.example/live")])
        var config = BoardConfig.player(
            channels: lineup, device: "null", period: .milliseconds(20), delay: .milliseconds(5_000))
        config.mqtt = mqtt
        let box = BoxSnapshot(
            engine: rig.engine,
            executor: CommandExecutor(engine: rig.engine, settings: Settings(delay: .milliseconds(5_000), volume: 50)),
            channel: lineup.selected, config: config, document: nil, output: OutputStatistics(),
            playoutThreadPriority: 40, recording: [], recentEvents: [], updateGate: UpdateRestartGate(),
            dailyUpdates: true)
        facts.requestDirectory = packaged ? "/run/delaybox" : nil
        let answers = ConsoleAnswers(
            facts: facts, box: box, started: rig.now, consoleConfigPath: "/var/lib/delaybox/config.yaml",
            dailyUpdatesPath: nil, boardChoices: BoardChoices())
        return (answers, box, ChannelChoice(lineup: lineup))
    }

    /// `line` answered by such a box: the reply and the effects asked.
    func ask(_ line: String, mqtt: MQTTSettings?, packaged: Bool = true) throws -> (ConsoleReply?, [ConsoleEffect]) {
        var (answers, box, channels) = try answers(mqtt: mqtt, packaged: packaged)
        var effects: [ConsoleEffect] = []
        let request = try #require(try ConsoleLanguage.parse(line)?.get())
        let reply = answers.answer(request, box: box, channels: &channels, effects: &effects, now: rig.now)
        return (reply, effects)
    }

    let hub = MQTTSettings(host: "127.0.0.1", port: 1883, username: VenueBrokerFiles.manager, group: "pub")
    let member = MQTTSettings(host: "192.168.1.20", port: 1883, clientID: "screen2", username: "screen2", group: "pub")

    @Test func thePartIsWhatTheMQTTSettingsSay() throws {
        let none = try ask("venue", mqtt: nil).0?.rendered(json: false)
        #expect(none == "role: none")
        #expect(
            try ask("venue", mqtt: hub).0?.rendered(json: false)
                == "role: hub\ngroup: pub\nbroker: mqtt://127.0.0.1:1883")
        #expect(try ask("venue", mqtt: member).0?.rendered(json: false).hasPrefix("role: box\ngroup: pub") == true)
    }

    @Test func aChangeIsAskedOfRootOffThePlayoutThread() throws {
        let (serve, served) = try ask("venue hub pub", mqtt: nil)
        #expect(serve == nil, "the reply waits")
        #expect(served == [.venue(.serve(group: "pub", pagePort: 80))])
        // The hub's own address by number goes into the code a box takes.
        #expect(
            try ask("venue add screen2", mqtt: hub).1 == [
                .venue(.admit(box: "screen2", hub: "192.168.1.20", group: "pub"))
            ])
        let code = VenueJoinCode(
            hub: "192.168.1.20", port: 1883, group: "pub", box: "screen2", password: "Kq7mZ2xP9rT4wLn8Hc3vBy6d")
        #expect(try ask("venue join \(code.text)", mqtt: nil).1 == [.venue(.join(code))])
        #expect(try ask("venue leave", mqtt: member).1 == [.venue(.leave)])
        #expect(try ask("venue hubs", mqtt: nil).1 == [.venue(.hear)])
        #expect(
            try ask("venue join 192.168.1.20:8080 k7qf-2mxp", mqtt: nil).1 == [
                .venue(.claim(hub: VenueHubAddress(host: "192.168.1.20", port: 8080), key: "K7QF2MXP"))
            ])
        #expect(
            try ask("venue join [fd00::2] K7QF2MXP", mqtt: nil).1 == [
                .venue(.claim(hub: VenueHubAddress(host: "fd00::2", port: 80), key: "K7QF2MXP"))
            ])
    }

    @Test func whatCannotBeIsRefusedBeforeRootIsAsked() throws {
        let unpackaged = try ask("venue hub pub", mqtt: nil, packaged: false)
        #expect(unpackaged.0?.reason?.contains("not installed from the package") == true && unpackaged.1.isEmpty)
        let notHub = try ask("venue add screen2", mqtt: member)
        #expect(notHub.0?.reason?.contains("not a venue's hub") == true && notHub.1.isEmpty)
        let code = VenueJoinCode(
            hub: "10.0.0.2", port: 1883, group: "pub", box: "screen2", password: "Kq7mZ2xP9rT4wLn8Hc3vBy6d")
        let hubJoins = try ask("venue join \(code.text)", mqtt: hub)
        #expect(hubJoins.0?.reason?.contains("`venue leave` first") == true && hubJoins.1.isEmpty)
        let nowhere = try ask("venue leave", mqtt: nil)
        #expect(nowhere.0?.reason == "this box is in no venue" && nowhere.1.isEmpty)
    }

    @Test func theOutcomeIsTheReply() throws {
        let code = VenueJoinCode(
            hub: "192.168.1.20", port: 1883, group: "pub", box: "screen2", password: "Kq7mZ2xP9rT4wLn8Hc3vBy6d")
        var answers = try answers(mqtt: nil).0
        let admitted = answers.venueDone(.admitted(code), now: rig.now).rendered(json: false)
        #expect(admitted.contains("code: \(code.text)"), "\(admitted)")
        #expect(answers.venueDone(.failed("root's venue helper did not answer"), now: rig.now).kind == .unavailable)
        let left = answers.venueDone(.done("this box is in no venue"), now: rig.now).rendered(json: false)
        #expect(left.contains("venue: this box is in no venue"), "\(left)")
        let heard = HeardHub(
            name: "Delaybox venue pub on bar", group: "pub", address: "10.0.0.2", pagePort: 80, brokerPort: 1883)
        let hubs = answers.venueDone(.heard([heard]), now: rig.now)
        #expect(hubs.rendered(json: true).contains("\"page_port\":80"), "\(hubs.rendered(json: true))")
        #expect(hubs.rendered(json: false) == "pub  Delaybox venue pub on bar  page 10.0.0.2:80  broker 1883")
        #expect(answers.venueDone(.heard([]), now: rig.now).rendered(json: false) == "no hub answered on this network")
    }

    /// The hub hands the code out by the key its `venue add` showed: once, to whoever has it.
    @Test func theHubHandsTheCodeOutByItsKey() throws {
        let code = VenueJoinCode(
            hub: "192.168.1.20", port: 1883, group: "pub", box: "screen2", password: "Kq7mZ2xP9rT4wLn8Hc3vBy6d")
        var (answers, box, channels) = try answers(mqtt: hub)
        let key = try #require(answers.venueDone(.admitted(code), now: rig.now).fields["passkey"]?.string)
        func claim(_ typed: String) throws -> ConsoleReply? {
            var effects: [ConsoleEffect] = []
            let request = try #require(try ConsoleLanguage.parse("venue claim \(typed)")?.get())
            defer { #expect(effects.isEmpty) }
            return answers.answer(request, box: box, channels: &channels, effects: &effects, now: rig.now)
        }
        #expect(try claim(key)?.fields["code"]?.string == code.text)
        #expect(try claim(key)?.kind == .refused)
        // A box that is no hub hands nothing out.
        #expect(try ask("venue claim \(key)", mqtt: member).0?.reason == "this box is not a venue's hub")
    }
}
