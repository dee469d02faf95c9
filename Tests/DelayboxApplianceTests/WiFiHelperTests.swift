import DelayboxNetwork
import DelayboxPlatform
import DelayboxState
import DelayboxTestSupport
import DelayboxUnits
import Foundation
import Synchronization
import Testing

@testable import DelayboxWiFi

/// Issue 66: root's Wi-Fi helper reads the service's request as a stranger's, gives
/// NetworkManager passwords in root-only keyfiles (never on nmcli's command line) and
/// answers the keeper through the runtime directory. With a recording nmcli here; the real
/// NetworkManager, polkit and systemd's path unit on the x86 virtual board
/// (VirtualBoardDeployTests+WiFi).
@Suite(.timeLimit(.minutes(10))) struct WiFiHelperTests {
    let runtime: URL
    let connections: URL
    /// nmcli's command lines, as the helper gave them.
    final class Calls: Sendable {
        let lines = Mutex<[[String]]>([])
        func withLock<T>(_ body: (inout [[String]]) -> T) -> T { lines.withLock { body(&$0) } }
    }
    let calls = Calls()

    init() throws {
        let root = try ExternalTool.temporaryDirectory("wifi-helper")
        runtime = root.appendingPathComponent("run")
        connections = root.appendingPathComponent("system-connections")
        for directory in [runtime, connections] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
    }

    /// nmcli that succeeds, except `connection up` of a network whose keyfile holds "wrong".
    func helper() -> WiFiHelper {
        let calls = calls, connections = connections
        return WiFiHelper(runtimeDirectory: runtime.path, connectionsDirectory: connections.path) { arguments in
            calls.withLock { $0.append(arguments) }
            if arguments.contains("list") { return .init(status: 0, output: Array(" :club:81:WPA3:6\n".utf8)) }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: connections.path)) ?? []
            let wrong = files.contains {
                (try? String(contentsOfFile: connections.path + "/" + $0, encoding: .utf8))?.contains("psk=wrong")
                    == true
            }
            if arguments.starts(with: ["--wait", "45", "connection", "up"]), wrong {
                return .init(
                    status: 4, output: Array("Error: Connection activation failed: Secrets were required.\n".utf8))
            }
            return .init(status: 0, output: [])
        }
    }

    func leave(_ text: String) throws {
        try text.write(to: runtime.appendingPathComponent(WiFiHelper.requestName), atomically: true, encoding: .utf8)
    }

    func answer() -> HelperAnswer? {
        (try? String(contentsOf: runtime.appendingPathComponent(WiFiHelper.answerName), encoding: .utf8))
            .flatMap { HelperAnswer(text: $0) }
    }

    @Test func aRequestSaysWhatItSaidAndNothingElse() throws {
        let requests: [WiFiRequest] = [
            .scan(device: "wlan0"), .closeHotspot,
            .openHotspot(device: "wlan0", ssid: "Delaybox-bar", channel: 6, password: "1234 5678 9012"),
            .join(device: "wlp1s0", ssid: "club house; 1969", password: ""), .forgetNetworks,
        ]
        for request in requests {
            let parsed = try WiFiRequest.parse(request.text(id: 42))
            #expect(parsed.id == 42 && parsed.request == request)
        }
        let refused: [(String, String)] = [
            ("delaybox-wifi-request 7\nhotspot\nwlan0\nbar\n13\nletmein99\n", "channel is 1, 6 or 11"),
            ("delaybox-wifi-request 7\nhotspot\nwlan0\nbar\n6\n\n", "has a password"),
            ("delaybox-wifi-request 7\njoin\n-wlan0\nclub\n\n", "not a network device's name"),
            ("delaybox-wifi-request 7\njoin\nwlan0\n-club\n\n", "may not begin with '-'"),
            ("delaybox-wifi-request 7\njoin\nwlan0\nclub\nshort\n", "8-63 printable ASCII"),
            ("delaybox-wifi-request 7\njoin\nwlan0\nclub\n", "takes 3 lines, not 2"),
            ("delaybox-wifi-request 7\nreboot\n", "no Wi-Fi request 'reboot'"),
            ("delaybox-wifi-request 7\nforget\nwlan0\n", "takes 0 lines, not 1"),
            ("hello\n", "not a Wi-Fi request"),
        ]
        for (text, problem) in refused {
            #expect(throws: WiFiRequest.Problem.self) { try WiFiRequest.parse(text) }
            do {
                _ = try WiFiRequest.parse(text)
            } catch {
                #expect(error.description.contains(problem), "\(text): \(error)")
                #expect(error.id == (text.hasPrefix("hello") ? nil : 7), "the refusal is answered to its id")
            }
        }
    }

    @Test func theHotspotsPasswordGoesInARootOnlyKeyfileNotOnTheCommandLine() throws {
        try leave(
            WiFiRequest.openHotspot(device: "wlan0", ssid: "Delaybox-bar", channel: 11, password: " a\\b c 99 ").text(
                id: 5))
        let said = helper().serve()
        #expect(said == "hotspot 'Delaybox-bar' on wlan0, channel 11: done")
        #expect(answer() == HelperAnswer(id: 5, failure: nil))
        #expect(!FileManager.default.fileExists(atPath: runtime.appendingPathComponent(WiFiHelper.requestName).path))
        let keyfile = connections.appendingPathComponent("delaybox-hotspot.nmconnection")
        let text = try String(contentsOf: keyfile, encoding: .utf8)
        #expect(text.contains("psk=\\sa\\\\b\\sc\\s99\\s\n"), "spaces and a backslash kept: \(text)")
        #expect(text.contains("mode=ap\n") && text.contains("channel=11\n") && text.contains("method=shared"))
        let mode = try FileManager.default.attributesOfItem(atPath: keyfile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let uuid = NetworkManagerKeyfile.hotspot(device: "wlan0", ssid: "x", channel: 1, password: "y").uuid
        #expect(
            calls.withLock { $0 } == [
                ["connection", "load", keyfile.path], ["--wait", "30", "connection", "up", "uuid", uuid],
            ])
        #expect(!calls.withLock { $0 }.joined().contains { $0.contains("a\\b") })
    }

    @Test func aNetworkThatCannotBeJoinedIsNotKept() throws {
        try leave(WiFiRequest.join(device: "wlan0", ssid: "club", password: "wrong password").text(id: 9))
        let said = helper().serve()
        #expect(said == "join 'club' on wlan0: Connection activation failed: Secrets were required.")
        #expect(answer() == HelperAnswer(id: 9, failure: "Connection activation failed: Secrets were required."))
        #expect(try FileManager.default.contentsOfDirectory(atPath: connections.path).isEmpty)
        #expect(calls.withLock { $0 }.last?.starts(with: ["connection", "delete", "uuid"]) == true)

        calls.withLock { $0.removeAll() }
        try leave(WiFiRequest.join(device: "wlan0", ssid: "club", password: "right password").text(id: 10))
        #expect(helper().serve() == "join 'club' on wlan0: done")
        let kept = try FileManager.default.contentsOfDirectory(atPath: connections.path)
        #expect(kept == ["delaybox-network-636c7562.nmconnection"])
        let text = try String(contentsOfFile: connections.path + "/" + kept[0], encoding: .utf8)
        #expect(text.contains("key-mgmt=sae\n"), "the scan said WPA3 alone: \(text)")
        #expect(text.contains("ssid=99;108;117;98;\n") && text.contains("autoconnect=true"))
    }

    /// `factory reset --forget-wifi`: the box's own networks go, from the disk and then from
    /// NetworkManager; its hotspot's keyfile and a network the owner added by hand stay.
    @Test func forgettingTheNetworksRemovesTheBoxsKeyfilesAlone() throws {
        let mine = [
            NetworkManagerKeyfile.network(device: "wlan0", ssid: "club", password: "", security: ""),
            NetworkManagerKeyfile.network(device: "", ssid: "imager's", password: "a password", security: "WPA2"),
        ]
        let others = [
            NetworkManagerKeyfile.hotspot(device: "wlan0", ssid: "Delaybox-bar", channel: 6, password: "x").fileName,
            "owners-office.nmconnection",
        ]
        for name in mine.map(\.fileName) + others {
            try "x".write(to: connections.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try leave(WiFiRequest.forgetNetworks.text(id: 12))
        #expect(helper().serve() == "forget the networks joined: done")
        #expect(answer() == HelperAnswer(id: 12, failure: nil))
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: connections.path)) == Set(others))
        #expect(calls.withLock { $0 } == [["connection", "reload"]])
    }

    /// What the service leaves could be anything a compromised service makes of it.
    @Test func aRequestThatIsNotTheServicesOwnFileIsRefused() throws {
        let request = runtime.appendingPathComponent(WiFiHelper.requestName)
        let secret = runtime.appendingPathComponent("secret")
        try "delaybox-wifi-request 1\nclose\n".write(to: secret, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(at: request, withDestinationURL: secret)
        #expect(helper().serve()?.contains("cannot be opened as a file") == true)
        #expect(!FileManager.default.fileExists(atPath: request.path) && calls.withLock { $0 }.isEmpty)

        #expect(mkfifo(request.path, 0o600) == 0)
        #expect(helper().serve()?.contains("is not a regular file") == true, "a FIFO does not hang root's helper")

        try String(repeating: "x", count: 2000).write(to: request, atomically: true, encoding: .utf8)
        #expect(helper().serve()?.contains("longer than 1024 bytes") == true)
        #expect(helper().serve() == nil, "nothing waits")
        #expect(calls.withLock { $0 }.isEmpty && answer() == nil)

        // An answer's place the service filled with a link is replaced, not written through.
        try FileManager.default.createSymbolicLink(
            at: runtime.appendingPathComponent(WiFiHelper.answerName + ".new"), withDestinationURL: secret)
        try leave(WiFiRequest.closeHotspot.text(id: 3))
        _ = helper().serve()
        #expect(try String(contentsOf: secret, encoding: .utf8) == "delaybox-wifi-request 1\nclose\n")
        #expect(answer() == HelperAnswer(id: 3, failure: nil))
    }

    /// The keeper's link and root's helper meet in the runtime directory: the link waits
    /// for the answer to its own request.
    @Test func theLinkWaitsForItsAnswer() throws {
        let link = WiFiHelperLink(directory: runtime.path, clock: SystemClock())
        try "77 ok\n".write(
            to: runtime.appendingPathComponent(WiFiHelper.answerName), atomically: true, encoding: .utf8)
        let helper = helper()
        let served = Mutex<String?>(nil)
        let answered = link.ask(.join(device: "wlan0", ssid: "club", password: "wrong password"), within: .seconds(20))
        {
            _ in
            if let said = helper.serve() { served.withLock { $0 = said } }
            return true
        }
        #expect(answered == "Connection activation failed: Secrets were required.", "not the old answer 77")
        #expect(served.withLock { $0 }?.hasPrefix("join 'club'") == true)
        #expect(!FileManager.default.fileExists(atPath: runtime.appendingPathComponent(WiFiHelper.answerName).path))
        let nobody = link.ask(.closeHotspot, within: .milliseconds(300)) { _ in
            usleep(100_000)
            return true
        }
        #expect(nobody?.contains("did not answer") == true)
        let outside = WiFiHelperLink(directory: nil, clock: SystemClock()).ask(.closeHotspot, within: .seconds(1)) {
            _ in true
        }
        #expect(outside?.contains("not installed from the package") == true)
    }
}
