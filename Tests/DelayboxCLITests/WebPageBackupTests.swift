import DelayboxTestSupport
import Foundation
import Testing

/// Backup, restore and undo from the page on two running `delaybox run`s, in Debian's
/// chromium driven by Playwright (tools/browser/web_backup.py): a backup taken on box A's
/// page restores onto a new box B from its first page (a corrupted copy refused first, with
/// its line, nothing changed; the copy with the passwords sealed refused with a wrong
/// passphrase, then restored with the right one); B, started again on it (exit status 75,
/// as systemd would), has A's channels, preset, delay and page password, and "Undo the last
/// change" puts back its delay after a change. Screenshots at phone size go to out/web/.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WebPageBackupTests {
    static let root = CommandLineTests.root

    /// The delay `box` says it has (ms), once it answers after a start; nil: it does not.
    static func delay(of box: BoxUnderTest) -> Int? {
        Eventually.value(within: 15) { () -> Int? in
            guard let status = try? box.ctl(["--json", "status"]).output,
                let object = try? JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any]
            else { return nil }
            return object["delay_ms"] as? Int
        }
    }

    @Test func aBackupTakenOnOneBoxRestoresOntoANewOneAndAChangeIsUndone() throws {
        _ = try PageScript.python()
        let executables = BoxUnderTest.debugBuild(root: Self.root)
        let (portA, portB) = (try LoopbackPort.unused(), try LoopbackPort.unused())
        let first = try BoxUnderTest(
            executables: executables, name: "web-backup-a", board: PageScript.board(port: portA))
        defer { first.stop() }
        let second = try BoxUnderTest(
            executables: executables, name: "web-backup-b", board: PageScript.board(port: portB))
        defer { second.stop() }
        try #require(first.setWebPassword("correct horse battery"), "A's password: \(first.log)")
        let lines = [
            ["delay", "7", "s"], ["line", "preset", "save", "3"],
            ["channel", "add", "Club", "Radio", "https://radio.example/club.mp3"], ["config", "save"],
        ]
        for line in lines {
            let done = try first.ctl(line)
            try #require(done.status == 0, "\(line): \(done.output) \(done.errors)")
        }
        let backup = first.directory.appendingPathComponent("downloaded.json").path
        func page(_ phase: String, _ port: Int) throws -> ExternalTool.Outcome {
            try PageScript.run(
                "web_backup.py", ["--phase", phase, "--url", "http://127.0.0.1:\(port)", "--backup", backup])
        }
        let take = try page("take", portA)
        #expect(take.status == 0, "\(take.output)\n\(take.errors)\nA's log:\n\(first.log)")

        let stateB = second.directory.appendingPathComponent("state.json").path
        // B's first page may choose a password (and so restore) 30 minutes from its boot:
        // this machine booted earlier, so the owner at the box opens the window.
        try WebDoorTests.openFirstPasswordWindow(second)
        let restore = try page("restore", portB)
        #expect(restore.status == 0, "\(restore.output)\n\(restore.errors)\nB's log:\n\(second.log)")
        try #require(Eventually.holds(within: 20) { !second.process.isRunning }, "B stops: \(second.log.suffix(1_500))")
        #expect(second.waitUntilExit() == 75, "B stops to be started again: \(second.log.suffix(1_500))")
        try second.startAgain()
        #expect(Self.delay(of: second) == 7_000, "A's delay: \(second.log.suffix(1_500))")
        #expect(try second.ctl(["channel"]).output.contains("Club Radio"))
        #expect(try second.ctl(["config", "get", "channels.1.name"]).output.contains("Club Radio"))
        #expect(try String(contentsOfFile: stateB, encoding: .utf8).contains("\"3\" : 7000"), "preset 3 restored")
        let pagePassword = { (box: BoxUnderTest) in
            try? String(contentsOf: box.directory.appendingPathComponent("web-password"), encoding: .utf8)
        }
        #expect(pagePassword(second) != nil && pagePassword(second) == pagePassword(first), "A's page password")

        // B has A's page password now: the owner logs in with it.
        let undo = try page("undo", portB)
        #expect(undo.status == 0, "\(undo.output)\n\(undo.errors)\nB's log:\n\(second.log)")
        try #require(Eventually.holds(within: 20) { !second.process.isRunning }, "B stops: \(second.log.suffix(1_500))")
        #expect(second.waitUntilExit() == 75)
        try second.startAgain()
        #expect(Self.delay(of: second) == 7_000, "the delay put back: \(second.log.suffix(1_500))")
        for name in ["backup-1-take", "backup-2-refused", "backup-3-restored", "backup-4-undone"] {
            #expect(PageScript.screenshot(name), "\(name)")
        }
    }
}
