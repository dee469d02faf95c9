import DelayboxTestSupport
import Foundation
import Testing

/// A factory reset from the page on a running `delaybox run`, in Debian's chromium driven
/// by Playwright (tools/browser/web_reset.py): the owner's password and the word typed
/// reset the box, which stops with exit status 75 (systemd starts it again: here the test
/// does); started again on the same directory it is as it came, and the page asks for a
/// new password. Screenshots at phone size go to out/web/.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WebPageResetTests {
    static let root = CommandLineTests.root

    @Test func anOwnerResetsTheBoxFromThePageAndChoosesANewPassword() throws {
        _ = try PageScript.python()
        let port = try LoopbackPort.unused()
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "web-reset",
            board: PageScript.board(port: port))
        defer { box.stop() }
        try #require(box.setWebPassword("correct horse battery"), "the owner's password set: \(box.log)")
        func page(_ phase: String) throws -> ExternalTool.Outcome {
            try PageScript.run(
                "web_reset.py",
                [
                    "--phase", phase, "--url", "http://127.0.0.1:\(port)", "--socket", box.socket,
                    "--ctl", BoxUnderTest.debugBuild(root: Self.root).appendingPathComponent("delayboxctl").path,
                ])
        }
        let reset = try page("reset")
        #expect(reset.status == 0, "\(reset.output)\n\(reset.errors)\nthe box's log:\n\(box.log)")
        try #require(Eventually.holds(within: 20) { !box.process.isRunning }, "the box stops: \(box.log.suffix(1_500))")
        let status = box.waitUntilExit()
        #expect(status == 75, "the box stops to be started again: exit status \(status)\n\(box.log.suffix(1_500))")
        for name in ["state.json", "web-password"] {
            #expect(!FileManager.default.fileExists(atPath: box.directory.appendingPathComponent(name).path), "\(name)")
        }

        try box.startAgain()
        let after = try page("after")
        #expect(after.status == 0, "\(after.output)\n\(after.errors)\nthe box's log:\n\(box.log)")
        #expect(
            box.log.contains("said where the box is") && box.log.contains("reset to its factory settings"), "\(box.log)"
        )
        for name in ["reset-1-form", "reset-2-done", "reset-3-back"] { #expect(PageScript.screenshot(name), "\(name)") }
    }
}
