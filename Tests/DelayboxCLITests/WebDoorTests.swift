import DelayboxTestSupport
import Foundation
import Testing

/// The web door's server on a running box, from outside with curl: the port systemd passes
/// (socket activation, as the package's delaybox.socket does on a board), a body too
/// large, a port already taken.
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
        let directory = try ExternalTool.temporaryDirectory("web-activation")
        defer { try? FileManager.default.removeItem(at: directory) }
        let board = directory.appendingPathComponent("board.yaml")
        try Self.board(web: "  port: 1")(directory).write(to: board, atomically: true, encoding: .utf8)
        let log = directory.appendingPathComponent("log.txt")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        // Not through Foundation's Process: systemd-socket-activate closes the descriptors it
        // inherits, which hung Foundation's watch over every child (SpawnedProcess).
        let box = try SpawnedProcess(
            [
                activate.path, "-l", "127.0.0.1:\(port)",
                RunningAppliance.debugBuild(root: Self.root).appendingPathComponent("delaybox").path,
                "run", "--board", board.path, "--state", directory.appendingPathComponent("state.json").path,
                "--seconds", "7",
            ],
            stderrFile: log)
        defer { box.stop() }
        let session = try Self.waitForPage("http://127.0.0.1:\(port)/api/session")
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(session.contains("\"password_set\":false"), "\(session)\n\(said)")
        #expect(said.contains("(port \(port))") && !said.contains("port 1 "), "\(said)")
    }

    @Test func aBodyTooLargeIsRefusedAndATakenPortIsSaidWhileTheBoxPlaysOn() throws {
        let port = try LoopbackPort.unused()
        let box = try RunningAppliance(
            executables: RunningAppliance.debugBuild(root: Self.root), name: "web-door",
            board: Self.board(web: "  port: \(port)"))
        let page = try Self.waitForPage("http://127.0.0.1:\(port)/")
        #expect(page.contains("<title>Delaybox</title>"), "\(box.log)")
        let large = String(repeating: "x", count: 9_000)
        let refused = try Self.curl([
            "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Delaybox-CSRF: login", "--data-binary",
            "password=\(large)",
            "http://127.0.0.1:\(port)/api/login",
        ])
        #expect(refused.output == "413", "\(refused.output) \(refused.errors)")

        let second = try RunningAppliance(
            executables: RunningAppliance.debugBuild(root: Self.root), name: "web-door-taken",
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
}
