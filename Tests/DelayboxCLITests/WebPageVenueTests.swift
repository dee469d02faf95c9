import DelayboxTestSupport
import Foundation
import Testing

/// Issue 70: a venue set up from two boxes' pages (tools/browser/web_venue.py), each box a
/// `delaybox run` installed as the package runs it (a runtime directory where root's venue
/// helper is asked). The test plays root for both (`RootVenueHelper`: the files under a
/// test directory, systemd's restart of mosquitto a real broker started from them). The
/// hub's page lists the joined box only once both log in to that broker with the
/// credentials the pages handed over. The box hears the hub on the LAN through a real
/// avahi-daemon (the hub's announcement as its root wrote it) and joins with the key the
/// hub's page showed, fetched from the hub's page by the box itself.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WebPageVenueTests {
    static let root = CommandLineTests.root

    @Test func aHubIsMadeAndABoxJoinsFromTheirPages() throws {
        _ = try PageScript.python()
        let place = try ExternalTool.temporaryDirectory("web-venue")
        chmod(place.path, 0o755)
        defer { try? FileManager.default.removeItem(at: place) }
        let brokerPort = try LoopbackPort.unused()
        let pages = try [LoopbackPort.unused(), LoopbackPort.unused()]
        let avahi = try AvahiDaemon(in: place)
        defer { avahi.stop() }
        let announcement = avahi.serviceFile("delaybox-test-hub-\(pages[0])")
        // The hub's root restarts its broker and time server as a slow board does (3 s each):
        // the page waits for the change, not a door's usual 2 s.
        let roots = try ["hub", "screen2"].map {
            try RootVenueHelper(
                place.appendingPathComponent($0), port: brokerPort, runsBroker: $0 == "hub",
                restartSeconds: $0 == "hub" ? 3 : 0, announcing: $0 == "hub" ? announcement : nil)
        }
        _ = roots.map { $0.serve() }
        defer { roots.forEach { $0.stop() } }
        var boxes: [BoxUnderTest] = []
        defer { boxes.forEach { $0.stop() } }
        for (index, name) in ["venue-hub", "venue-screen2"].enumerated() {
            let (root, port) = (roots[index], pages[index])
            let box = try BoxUnderTest(
                executables: BoxUnderTest.debugBuild(root: Self.root), name: name,
                environment: ["RUNTIME_DIRECTORY": root.runtime, "DELAYBOX_VENUE_BROKER_PORT": String(brokerPort)],
                board: PageScript.board(port: port))
            boxes.append(box)
            try #require(box.setWebPassword("correct horse battery"), "the owner's password set: \(box.log)")
        }
        let outcome = try PageScript.run(
            "web_venue.py", ["--hub", "http://127.0.0.1:\(pages[0])", "--box", "http://127.0.0.1:\(pages[1])"])
        let logs = "the hub's log:\n\(boxes[0].log)\nthe box's log:\n\(boxes[1].log)"
        #expect(outcome.status == 0, "\(outcome.output)\n\(outcome.errors)\n\(logs)")
        // The box follows the hub's time: chrony's source written as root would.
        let source = try? String(contentsOfFile: roots[1].helper.files.timeSource, encoding: .utf8)
        #expect(source?.contains("server ") == true && source?.contains(" iburst prefer") == true)
        #expect(try boxes[1].ctl(["status"]).output.contains("group: pub"))
        // The hub's page named screen2 the canary: it asked its own root's updater first, for
        // its next pause or update window.
        let request = URL(fileURLWithPath: roots[1].runtime).appendingPathComponent("update-request")
        #expect(
            Eventually.holds(within: 10) { (try? String(contentsOf: request, encoding: .utf8)) == "later\n" },
            "the canary's log:\n\(boxes[1].log)")
    }
}
