import DelayboxConfig
import DelayboxConfigFile
import DelayboxFiles
import DelayboxMQTT
import DelayboxNetwork
import DelayboxPlatform
import DelayboxState
import DelayboxTestSupport
import DelayboxUnits
import DelayboxVenue
import Foundation
import Synchronization
import Testing

/// Issue 70: root's venue helper makes a box the venue's hub from the service's request —
/// files a real mosquitto and a real chronyd run from here (systemd's part recorded: the
/// broker is started by the test, and told to reload as systemd would, by SIGHUP) — lets
/// boxes in and out, points a box's chrony at a hub, and undoes it all.
@Suite(.timeLimit(.minutes(10))) struct VenueHelperTests {
    let directory: URL
    let runtime: URL
    let paths: VenuePaths
    let password = "hub-Manager-pass-1"
    let system = RootVenueHelper.System()

    init() throws {
        directory = try ExternalTool.temporaryDirectory("venue-helper")
        // mosquitto reads its files as its own user once it has started.
        chmod(directory.path, 0o755)
        runtime = directory.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        paths = VenuePaths(root: directory.appendingPathComponent("root").path)
    }

    func helper(port: Int = 1883) -> VenueHelper {
        let system = system
        return VenueHelper(runtimeDirectory: runtime.path, files: paths, brokerPort: port) { program, arguments in
            guard program == "/usr/bin/systemctl" || program == "/usr/bin/chronyc" else {
                return ChildProcess.run(program, arguments)
            }
            system.calls.withLock { $0.append([program] + arguments) }
            if arguments == ["reload", "mosquitto.service"] { kill(system.brokerProcess.withLock { $0 }, SIGHUP) }
            return .init(status: 0, output: [])
        }
    }

    /// Leaves `request` as the service would and has the helper serve it.
    @discardableResult
    func ask(_ request: VenueRequest, _ helper: VenueHelper) throws -> HelperAnswer? {
        try request.text(id: 7).write(
            to: runtime.appendingPathComponent(VenueHelper.requestName), atomically: true, encoding: .utf8)
        _ = helper.serve()
        return (try? String(contentsOf: runtime.appendingPathComponent(VenueHelper.answerName), encoding: .utf8))
            .flatMap { HelperAnswer(text: $0) }
    }

    @Test func aHubsBrokerLetsInTheManagerAndTheBoxesItAdmitsOnly() throws {
        let port = try LoopbackPort.unused()
        let helper = helper(port: port)
        #expect(
            try ask(.admit(user: "screen1", password: "screen1-password"), helper)?.failure
                == "this box is not a venue's hub")
        #expect(
            try ask(.serve(group: "pub", managerPassword: password, pagePort: 80), helper)
                == HelperAnswer(id: 7, failure: nil))
        #expect(
            system.calls.withLock { $0 } == [
                ["/usr/bin/systemctl", "enable", "mosquitto.service"],
                ["/usr/bin/systemctl", "restart", "mosquitto.service"],
                ["/usr/bin/systemctl", "restart", "chrony.service"],
            ])
        let passwords = try String(contentsOfFile: paths.passwords, encoding: .utf8)
        #expect(passwords.hasPrefix("manager:$"), "hashed by mosquitto_passwd")
        #expect(!passwords.contains(password))
        var status = stat()
        stat(paths.passwords, &status)
        #expect(status.st_mode & 0o777 == 0o640)
        #expect(status.st_gid == getgrnam("mosquitto")?.pointee.gr_gid, "the broker reads it as its own user")
        #expect(try String(contentsOfFile: paths.acl, encoding: .utf8) == VenueBrokerFiles.acl(group: "pub"))
        #expect(try String(contentsOfFile: paths.announcement, encoding: .utf8).contains("group=pub"))

        let broker = try RootVenueHelper.startBroker(port: port, root: paths.root, in: directory) { pid in
            system.brokerProcess.withLock { $0 = pid }
        }
        defer { broker.kill() }
        #expect(RootVenueHelper.logsIn(VenueBrokerFiles.manager, password, port: port))
        #expect(!RootVenueHelper.logsIn(VenueBrokerFiles.manager, "hub-Manager-pass-2", port: port))
        #expect(!RootVenueHelper.logsIn("screen1", "screen1-password", port: port), "not admitted yet")

        #expect(
            try ask(.admit(user: "screen1", password: "screen1-password"), helper) == HelperAnswer(id: 7, failure: nil))
        #expect(
            Eventually.holds(within: 10, every: 0.2) {
                RootVenueHelper.logsIn("screen1", "screen1-password", port: port)
            })
        #expect(RootVenueHelper.logsIn(VenueBrokerFiles.manager, password, port: port), "the others kept")
        #expect(
            try ask(.admit(user: "screen1", password: "screen1-password-2"), helper)
                == HelperAnswer(id: 7, failure: nil))
        #expect(
            Eventually.holds(within: 10, every: 0.2) {
                RootVenueHelper.logsIn("screen1", "screen1-password-2", port: port)
            })
        #expect(!RootVenueHelper.logsIn("screen1", "screen1-password", port: port), "its old password replaced")
        #expect(try ask(.dismiss(user: "screen1"), helper) == HelperAnswer(id: 7, failure: nil))
        #expect(
            Eventually.holds(within: 10, every: 0.2) {
                !RootVenueHelper.logsIn("screen1", "screen1-password-2", port: port)
            })
        #expect(try ask(.follow(hub: "10.0.0.5"), helper)?.failure?.contains("this box is the venue's hub") == true)

        system.calls.withLock { $0 = [] }
        #expect(try ask(.leave, helper) == HelperAnswer(id: 7, failure: nil))
        for path in [paths.broker, paths.passwords, paths.acl, paths.timeServer, paths.announcement] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) removed")
        }
        #expect(
            system.calls.withLock { $0 } == [
                ["/usr/bin/systemctl", "disable", "--now", "mosquitto.service"],
                ["/usr/bin/systemctl", "restart", "chrony.service"],
            ])
    }

    /// The hub's chrony part serves its own clock to the LAN when it has no source of its
    /// own (a venue without internet): a chronyd run from it is followed by another.
    @Test func aHubServesItsClockAndABoxFollowsIt() throws {
        #expect(
            try ask(.serve(group: "pub", managerPassword: password, pagePort: 80), helper())
                == HelperAnswer(id: 7, failure: nil))
        // Loopback is not the LAN the hub serves: the test's client asks on it.
        let pair = try ChronyPair(serverSettings: "include \(paths.timeServer)\nallow 127.0.0.1")
        try pair.start()
        defer { pair.stop() }
        #expect(Eventually.holds(within: 20, every: 0.2) { pair.tracking().hasSuffix(",Normal\n") })

        #expect(try ask(.leave, helper()) == HelperAnswer(id: 7, failure: nil))
        #expect(try ask(.follow(hub: "192.168.1.10"), helper()) == HelperAnswer(id: 7, failure: nil))
        #expect(system.calls.withLock { $0.last } == ["/usr/bin/chronyc", "reload", "sources"])
        // chronyd reads the source as it would from /etc/chrony/sources.d.
        let read = try ExternalTool.run(["chronyd", "-p", "-f", paths.timeSource])
        #expect(read.contains("server 192.168.1.10 iburst prefer minpoll 4 maxpoll 6"))
    }
}

/// Issue 70: the service's side of a venue (`VenueErrand`, as `venue hub`, `venue add` and
/// `venue join` run it off the playout thread) meets root's helper through the runtime
/// directory: the hub's saved config logs in to the broker root configured, and so does
/// the box that joined with the code the hub gave.
@Suite(.timeLimit(.minutes(10))) struct VenueErrandTests {
    @Test func aHubMadeAndABoxJoinedLogInToTheBrokerRootConfigured() throws {
        let directory = try ExternalTool.temporaryDirectory("venue-errand")
        chmod(directory.path, 0o755)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try LoopbackPort.unused()
        let hub = try RootVenueHelper(directory.appendingPathComponent("hub"), port: port)
        let screen = try RootVenueHelper(directory.appendingPathComponent("screen2"), port: port)
        _ = [hub.serve(), screen.serve()]
        defer { [hub, screen].forEach { $0.stop() } }
        // What the owner saved before stays; an old broker's TLS settings do not.
        try "defaults:\n  delay: \"30 s\"\nmqtt:\n  broker: mqtts://old.example\n  ca_file: /etc/ssl/old.pem\n".write(
            toFile: screen.configPath, atomically: true, encoding: .utf8)

        guard case .done(let made) = hub.errand(port: port).perform(.serve(group: "pub", pagePort: 80)) else {
            Issue.record("the hub was not made")
            return
        }
        #expect(made.contains("hub of venue 'pub'"))
        let hubSettings = try #require(try hub.mqtt())
        #expect(hubSettings.brokerURL == "mqtt://127.0.0.1:\(port)" && hubSettings.username == "manager")
        #expect(hubSettings.group == "pub" && hubSettings.venueClock == .own)
        var status = stat()
        stat(hub.configPath, &status)
        #expect(status.st_mode & 0o777 == 0o600, "it holds the broker's password")

        let broker = try RootVenueHelper.startBroker(port: port, root: hub.helper.files.root, in: directory) { pid in
            hub.system.brokerProcess.withLock { $0 = pid }
        }
        defer { broker.kill() }
        let hubPassword = try #require(hubSettings.password?.revealed)
        #expect(RootVenueHelper.logsIn("manager", hubPassword, port: port))

        guard
            case .admitted(let code) = hub.errand(port: port).perform(
                .admit(box: "screen2", hub: "127.0.0.1", group: "pub"))
        else {
            Issue.record("screen2 was not let in")
            return
        }
        guard case .done = screen.errand(port: port).perform(.join(code)) else {
            Issue.record("screen2 did not join")
            return
        }
        let screenSettings = try #require(try screen.mqtt())
        #expect(screenSettings.brokerURL == "mqtt://127.0.0.1:\(port)" && screenSettings.caFile == nil)
        #expect(screenSettings.clientID == "screen2" && screenSettings.username == "screen2")
        #expect(screenSettings.group == "pub" && screenSettings.venueClock == .chrony)
        let saved = try String(contentsOfFile: screen.configPath, encoding: .utf8)
        #expect(saved.contains("\"defaults\":\n  \"delay\": \"30 s\""), "\(saved)")
        #expect(
            try String(contentsOfFile: screen.helper.files.timeSource, encoding: .utf8).contains("server 127.0.0.1 "))
        let screenPassword = try #require(screenSettings.password?.revealed)
        #expect(
            Eventually.holds(within: 10, every: 0.2) { RootVenueHelper.logsIn("screen2", screenPassword, port: port) })

        // Nobody answers: refused in words, nothing written.
        screen.stop()
        usleep(100_000)
        let before = try String(contentsOfFile: screen.configPath, encoding: .utf8)
        guard case .failed(let why) = screen.errand(port: port, patience: .milliseconds(300)).perform(.leave) else {
            Issue.record("a leave nobody carried out was taken as done")
            return
        }
        #expect(why.contains("root's venue helper did not answer"), "\(why)")
        #expect(try String(contentsOfFile: screen.configPath, encoding: .utf8) == before)
    }

    /// A saved config that no longer reads is refused before root is asked: joining would
    /// otherwise replace the owner's other saved keys with the venue's settings alone.
    @Test func aSavedConfigThatNoLongerReadsIsRefusedBeforeRootIsAsked() throws {
        let directory = try ExternalTool.temporaryDirectory("venue-unreadable")
        chmod(directory.path, 0o755)
        defer { try? FileManager.default.removeItem(at: directory) }
        let screen = try RootVenueHelper(directory.appendingPathComponent("screen2"), port: 1883)
        defer { screen.stop() }
        _ = screen.serve()
        let broken = "defaults:\n  delay: \"30 s\n  volume: [40\n"
        try broken.write(toFile: screen.configPath, atomically: true, encoding: .utf8)
        let code = VenueJoinCode(
            hub: "192.0.2.7", port: 1883, group: "pub", box: "screen2", password: VenueJoinCode.newPassword())
        guard case .failed(let why) = screen.errand(port: 1883).perform(.join(code)) else {
            Issue.record("a join over an unreadable saved config was carried out")
            return
        }
        #expect(why.contains("\(screen.configPath):") && why.contains("nothing changed"), "\(why)")
        #expect(try String(contentsOfFile: screen.configPath, encoding: .utf8) == broken)
        #expect(!FileManager.default.fileExists(atPath: screen.helper.files.timeSource), "root was asked")
    }
}
