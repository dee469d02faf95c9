import DelayboxTestSupport
import Foundation
import Testing

/// The web door's server on a running box, from outside with curl: the port systemd passes
/// (socket activation, as the package's delaybox.socket does on a board), a body too
/// large, a port already taken, a neighbour with many IPv6 addresses.
@Suite(.timeLimit(.minutes(10))) struct WebDoorTests {
    static let root = CommandLineTests.root

    static func board(web: String) -> (URL) -> String {
        { _ in
            """
            extends: \(root.appendingPathComponent("board-configs/simulated-host.yaml").path)
            audio:
              device: null
            web:
            \(web)
            """
        }
    }

    static func curl(_ arguments: [String]) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "--max-time", "5"] + arguments)
    }

    /// Polls `url` until it answers (the box is starting).
    static func waitForPage(_ url: String) throws -> String {
        try Eventually.value(within: 10, every: 0.1) {
            let outcome = try curl([url])
            return outcome.status == 0 && !outcome.output.isEmpty ? outcome.output : nil
        } ?? ""
    }

    @Test func theSocketSystemdPassesIsServedWhateverPortTheConfigSays() throws {
        let port = try LoopbackPort.unused()
        let activate = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        try #require(
            FileManager.default.isExecutableFile(atPath: activate.path), "systemd-socket-activate (package systemd)")
        // Not through Foundation's Process: systemd-socket-activate closes the descriptors it
        // inherits, which hung Foundation's watch over every child (SpawnedProcess).
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "web-activation",
            arguments: ["--seconds", "7"],
            start: .socketActivated(address: "127.0.0.1:\(port)"), board: Self.board(web: "  port: 1"))
        defer { box.process.stop(within: 5) }
        let session = try Self.waitForPage("http://127.0.0.1:\(port)/api/session")
        let said = box.log
        #expect(session.contains("\"password_set\":false"), "\(session)\n\(said)")
        #expect(said.contains("(port \(port))") && !said.contains("port 1 "), "\(said)")
    }

    @Test func aBodyTooLargeIsRefusedAndATakenPortIsSaidWhileTheBoxPlaysOn() throws {
        let port = try LoopbackPort.unused()
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "web-door",
            board: Self.board(web: "  port: \(port)"))
        let page = try Self.waitForPage("http://127.0.0.1:\(port)/")
        #expect(page.contains("<title>Delaybox</title>"), "\(box.log)")
        let large = String(repeating: "x", count: 70_000)
        let refused = try Self.curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Delaybox-CSRF: login", "--data-binary",
            "password=\(large)",
            "http://127.0.0.1:\(port)/api/login",
        ])
        #expect(refused.output == "413", "\(refused.output) \(refused.errors)")

        let second = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "web-door-taken",
            board: Self.board(web: "  port: \(port)"))
        _ = Eventually.holds(within: 10, every: 0.1) { second.log.contains("state: buffering -> playing") }
        #expect(
            second.log.contains(
                "web page: port \(port) is taken (by another program, or another box on this host): set web.port; playing without it"
            ),
            "\(second.log)")
        #expect(second.log.contains("state: buffering -> playing"))
        second.stop()
        box.stop()
    }

    /// `web reset` at the console (the owner at the box): the page may choose the first
    /// password for 30 minutes from now, whenever this machine booted.
    static func openFirstPasswordWindow(_ box: BoxUnderTest) throws {
        let reset = Eventually.value(within: 10, every: 0.1) { () -> String? in
            guard let outcome = try? box.ctl(["web", "reset"]), outcome.status == 0 else { return nil }
            return outcome.output
        }
        try #require(reset != nil, "web reset: \(box.log)")
    }

    /// The seconds `/api/session` says the first password may still be chosen.
    static func setupLeft(_ url: String) throws -> Int {
        let session = try waitForPage(url + "/api/session")
        let object = try JSONSerialization.jsonObject(with: Data(session.utf8)) as? [String: Any]
        return try #require(object?["setup_left_s"] as? Int, "\(session)")
    }

    /// The first password's window is the board's boot's, not the service's start: a box
    /// started now offers what is left of the 30 minutes after this machine booted (none,
    /// once it has been up longer), and a restart does not open it again; `web reset` at
    /// the console opens 30 minutes from then (issue 56).
    @Test func theFirstPasswordWindowCountsFromTheBootNotTheStart() throws {
        let port = try LoopbackPort.unused()
        let url = "http://127.0.0.1:\(port)"
        for run in ["first", "restarted"] {
            let box = try BoxUnderTest(
                executables: BoxUnderTest.debugBuild(root: Self.root), name: "web-window-\(run)",
                board: Self.board(web: "  port: \(port)"))
            defer { box.stop() }
            let left = try Self.setupLeft(url)
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let sinceBoot = Int(now.tv_sec)
            #expect(abs(left - max(0, 1_800 - sinceBoot)) <= 3, "\(run): \(left) s left, booted \(sinceBoot) s ago")
            if run == "restarted" {
                try Self.openFirstPasswordWindow(box)
                #expect((1_795...1_800).contains(try Self.setupLeft(url)), "after web reset")
                // A password a dictionary guesses is refused by the page (libpwquality).
                let weak = try Self.curl([
                    "-H", "X-Delaybox-CSRF: login", "--data", "new=password1", url + "/api/password",
                ])
                #expect(weak.output.contains("too easy to guess"), "\(weak.output)")
            }
        }
    }

    /// The page's console line from outside, as a logged-in phone sends it (curl with the
    /// session's cookie and token): what names a file, a device, a host or a non-http link
    /// is refused in the console's words and changes nothing; a listener's change goes
    /// through (issue 56).
    @Test func thePageChangesOnlyWhatAListenerChanges() throws {
        let port = try LoopbackPort.unused()
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "web-owner-only",
            board: Self.board(web: "  port: \(port)"))
        defer { box.stop() }
        let url = "http://127.0.0.1:\(port)"
        _ = try Self.waitForPage(url + "/api/session")
        try Self.openFirstPasswordWindow(box)
        let jar = box.directory.appendingPathComponent("cookies.txt").path
        func post(_ path: String, _ field: String, csrf: String) throws -> String {
            try Self.curl([
                "-b", jar, "-c", jar, "-H", "X-Delaybox-CSRF: \(csrf)", "--data-urlencode", field, url + path,
            ])
            .output
        }
        let opened = try post("/api/password", "new=correct horse battery", csrf: "login")
        let fields = try JSONSerialization.jsonObject(with: Data(opened.utf8)) as? [String: Any]
        let csrf = try #require(fields?["csrf"] as? String, "\(opened)")
        for line in [
            "config set audio.device wav:\(box.directory.path)/web-password",
            "config set mqtt.broker mqtt://elsewhere.example", "config set channels.0.url file:///etc/passwd",
            "channel add Neighbour file:///etc/passwd",
        ] {
            let answer = try post("/api/command", "line=\(line)", csrf: csrf)
            #expect(answer.contains("the owner's") || answer.contains("http:// or https://"), "\(line): \(answer)")
        }
        let delay = try post("/api/command", "line=config set defaults.delay 30 s", csrf: csrf)
        #expect(delay.contains("\"result\":\"ok\""), "a listener's change: \(delay)")
        let device = try box.ctl(["config", "get", "audio.device"])
        #expect(device.output.contains("null") && !device.output.contains("wav:"), "\(device.output)")
    }

    /// Issue 66: on the box's own LAN (a /64 it has an address in: many homes' phones), each
    /// neighbour counts by its address — one's wrong passwords lock it out, not the next flat.
    @Test(.enabled(if: getuid() == 0, "adds IPv6 addresses to lo: needs root (make test runs as root in CI)"))
    func neighboursOnTheBoxsOwnLANCountOneByOne() throws {
        let net = "fd5a:de1a:b0c5:2::"
        try ExternalTool.run(["ip", "-6", "addr", "add", net + "1/64", "dev", "lo", "nodad"])
        let peers = [net + "11", net + "12"]
        for address in peers {
            try ExternalTool.run(["ip", "-6", "addr", "add", address + "/128", "dev", "lo", "nodad"])
        }
        defer {
            _ = try? ExternalTool.run(["ip", "-6", "addr", "del", net + "1/64", "dev", "lo"])
            for address in peers {
                _ = try? ExternalTool.run(["ip", "-6", "addr", "del", address + "/128", "dev", "lo"])
            }
        }
        let port = try LoopbackPort.unused()
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "web-lan",
            board: Self.board(web: "  port: \(port)"))
        defer { box.stop() }
        let owner = "http://127.0.0.1:\(port)", server = "http://[\(net)1]:\(port)"
        _ = try Self.waitForPage(owner + "/api/session")
        func post(_ url: String, _ form: String, from source: String? = nil) throws -> String {
            try Self.curl(
                (source.map { ["--interface", $0] } ?? []) + [
                    "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Delaybox-CSRF: login", "--data", form, url,
                ]
            ).output
        }
        try Self.openFirstPasswordWindow(box)
        #expect(try post(owner + "/api/password", "new=correct horse battery") == "200", "\(box.log)")
        let guesses = try (0..<6).map { try post(server + "/api/login", "password=guess\($0)", from: peers[0]) }
        #expect(guesses == ["401", "401", "401", "401", "401", "429"], "\(guesses)")
        #expect(
            try post(server + "/api/login", "password=guess", from: peers[1]) == "401", "the next flat is not locked")
    }

    /// A LAN neighbour with many addresses of one IPv6 /64 (here on loopback,
    /// fd5a:de1a:b0c5:1::11-16) is one peer: its wrong passwords lock its /64 after 5 and
    /// never the owner's login; it holds at most 6 connections and 3 status streams, and
    /// the owner still gets both (issue 56).
    @Test(.enabled(if: getuid() == 0, "adds IPv6 addresses to lo: needs root (make test runs as root in CI)"))
    func aNeighbourWithManyAddressesIsOneNetwork() throws {
        let net = "fd5a:de1a:b0c5:1::"
        let addresses = (10...17).map { net + String($0) }
        for address in addresses {
            try ExternalTool.run(["ip", "-6", "addr", "add", address + "/128", "dev", "lo", "nodad"])
        }
        defer {
            for address in addresses {
                _ = try? ExternalTool.run(["ip", "-6", "addr", "del", address + "/128", "dev", "lo"])
            }
        }
        let port = try LoopbackPort.unused()
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "web-neighbour",
            board: Self.board(web: "  port: \(port)"))
        defer { box.stop() }
        let owner = "http://127.0.0.1:\(port)", server = "http://[\(net)10]:\(port)"
        _ = try Self.waitForPage(owner + "/api/session")
        func post(_ url: String, _ form: String, from source: String? = nil) throws -> String {
            try Self.curl(
                (source.map { ["--interface", $0] } ?? []) + [
                    "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Delaybox-CSRF: login", "--data", form, url,
                ]
            ).output
        }
        try Self.openFirstPasswordWindow(box)
        #expect(try post(owner + "/api/password", "new=correct horse battery") == "200", "\(box.log)")

        var codes: [String] = []
        for address in addresses.dropFirst().prefix(6) {
            for attempt in 0..<4 {
                codes.append(try post(server + "/api/login", "password=guess\(attempt)", from: address))
            }
        }
        #expect(codes.prefix(5).allSatisfy { $0 == "401" } && codes.dropFirst(5).allSatisfy { $0 == "429" }, "\(codes)")
        #expect(try post(owner + "/api/login", "password=correct horse battery") == "200", "the owner is locked out")

        // Sockets held open without a request: the 7th from the /64 is closed at once, and
        // the owner's still served. Then status streams: the 4th from the /64 gets 503.
        let held = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/python3"),
            [
                "-c",
                """
                import socket, sys
                held = []
                for i in range(7):
                    s = socket.create_connection(("\(net)10", \(port)), 5, (sys.argv[1 + i % 6], 0))
                    held.append(s)
                said = []
                for s in held:
                    s.settimeout(1.5)
                    try:
                        said.append("closed" if s.recv(1) == b"" else "open")
                    except socket.timeout:
                        said.append("open")
                    except OSError:
                        said.append("closed")
                owner = socket.create_connection(("127.0.0.1", \(port)), 5)
                owner.sendall(b"GET /api/session HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n")
                owner.settimeout(5)
                said.append(owner.recv(12).decode())
                print(" ".join(said))
                """,
            ] + Array(addresses.dropFirst().prefix(6)))
        #expect(held.output.hasPrefix("open open open open open open closed HTTP/1."), "\(held.output) \(held.errors)")

        // Three streams from the /64, given a second to open (a fixed wait: curl says
        // nothing while a stream runs), then a fourth from it and the owner's.
        let events = "/api/events"
        let streams = try ExternalTool.run([
            "bash", "-c",
            """
            for a in \(addresses[1]) \(addresses[2]) \(addresses[3]); do
              curl -s --interface $a -o /dev/null --max-time 4 \(server + events) &
            done
            sleep 1
            echo "fourth $(curl -s --interface \(addresses[4]) -o /dev/null -w '%{http_code}' --max-time 2 \(server + events))"
            echo "owner $(curl -s -o /dev/null -w '%{http_code}' --max-time 2 \(owner + events))"
            wait
            """,
        ])
        #expect(streams == "fourth 503\nowner 200\n", "\(streams)")
    }
}
