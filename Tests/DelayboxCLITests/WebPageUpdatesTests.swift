import DelayboxTestSupport
import Foundation
import Testing

/// Box → Updates on a running `delaybox run` (installed as the package runs it: a runtime
/// directory for root's updater), in Debian's chromium driven by Playwright
/// (tools/browser/web_updates.py). The test plays root's updater: the release files it
/// writes (`DELAYBOX_RELEASE_DIRECTORY`) and the requests it would take. The nightly look
/// switched off on the page is off again after a restart, and the file the package's
/// updater reads says so.
@Suite(.serialized, .timeLimit(.minutes(10))) struct WebPageUpdatesTests {
    static let root = CommandLineTests.root

    @Test func anOwnerSeesTheUpdatesAndSwitchesTheNightlyLookOff() throws {
        _ = try PageScript.python()
        let place = try ExternalTool.temporaryDirectory("web-updates")
        defer { try? FileManager.default.removeItem(at: place) }
        let (runtime, release) = (place.appendingPathComponent("run"), place.appendingPathComponent("release"))
        for directory in [runtime, release] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try "up to date: 1.2.0-1~deb13\n".write(
            to: release.appendingPathComponent("status"), atomically: true, encoding: .utf8)
        try "2026-11-29 04:12 1.3.0-1~deb13 failed its check (restarted by systemd); 1.2.0-1~deb13 was put back\n"
            .write(to: release.appendingPathComponent("last-rollback"), atomically: true, encoding: .utf8)
        let environment = ["RUNTIME_DIRECTORY": runtime.path, "DELAYBOX_RELEASE_DIRECTORY": release.path]
        let port = try LoopbackPort.unused()
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: Self.root), name: "web-updates", environment: environment,
            board: PageScript.board(port: port))
        defer { box.stop() }
        try #require(box.setWebPassword("correct horse battery"), "the owner's password set: \(box.log)")
        func page(_ phase: String) throws -> ExternalTool.Outcome {
            try PageScript.run(
                "web_updates.py",
                ["--phase", phase, "--url", "http://127.0.0.1:\(port)", "--runtime", runtime.path],
                environment: ["DELAYBOX_RELEASE_DIRECTORY": release.path])
        }
        let updates = try page("updates")
        #expect(updates.status == 0, "\(updates.output)\n\(updates.errors)\nthe box's log:\n\(box.log)")
        let daily = box.directory.appendingPathComponent("daily-updates")
        #expect((try? String(contentsOf: daily, encoding: .utf8)) == "off\n", "what the package's updater reads")
        #expect(try box.ctl(["update", "daily"]).output.contains("daily_updates: off"))

        box.stop()
        try box.startAgain()
        let after = try page("after")
        #expect(after.status == 0, "\(after.output)\n\(after.errors)\nthe box's log:\n\(box.log)")
    }
}
