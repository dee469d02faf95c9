import DelayboxPlatform
import DelayboxTestSupport
import DelayboxWeb
import Foundation
import Testing

@testable import DelayboxApp
@testable import DelayboxFiles

/// `factory reset`, the whole appliance in virtual time: what makes the box its owner's is
/// removed off the playout thread, the reply waits for it, the box asks to be started again,
/// and started again on the same directory it is as it came — the board's defaults, no page
/// password, the page's window open to choose one, and it says it was reset.
@Suite(.timeLimit(.minutes(10))) struct FactoryResetTests {
    static let board = ApplianceScenarioTests.board(
        extraChannel: "web:\n  port: \(20_000 + Int.random(in: 0..<20_000))")

    @Test func aResetBoxComesBackAsItCameWithItsBoardKept() throws {
        let box = try VirtualAppliance(board: Self.board, web: true)
        let file = { (name: String) in box.directory.appendingPathComponent(name).path }
        try box.run(seconds: 2)
        #expect(try box.console("delay 8").contains("delay_ms: 8000"))
        #expect(try box.console("volume 40").contains("result: ok"))
        #expect(try box.console("preset save 2").contains("result: ok"))
        #expect(try box.console("channel add Studio https://studio.example/live.mp3").contains("result: ok"))
        #expect(try box.console("config save").contains("saved: \(file("config.yaml"))"))
        // It may hold a venue's broker password: the service's alone.
        var saved = stat()
        #expect(stat(file("config.yaml"), &saved) == 0 && saved.st_mode & 0o777 == 0o600)
        #expect(box.web?.set(password: "a long owner's password") == nil)
        try box.run(seconds: 3)  // the settings saved (2 s after the last change)
        // Saved on the saver's thread, in real time: waited for.
        #expect(Eventually.holds(within: 5) { FileManager.default.fileExists(atPath: file("state.json")) })
        #expect(FileManager.default.fileExists(atPath: file("web-password")))
        #expect(!box.playout.restartAsked)

        let answer = try box.console("factory reset")
        #expect(
            answer.contains("reset: the settings, the saved config and the page's password are removed"), "\(answer)")
        for name in ["state.json", "config.yaml", "web-password"] {
            #expect(!FileManager.default.fileExists(atPath: file(name)), "\(name) removed")
        }
        #expect(box.playout.restartAsked, "the box asks to be started again")
        try box.run(seconds: 3)
        #expect(
            !Eventually.holds(within: 1) { FileManager.default.fileExists(atPath: file("state.json")) },
            "nothing saved after the reset")
        box.playout.fadeOut(now: box.clock.now())
        #expect(!FileManager.default.fileExists(atPath: file("state.json")), "nor at its stop")

        let again = try VirtualAppliance(board: Self.board, web: true, in: box.directory)
        try again.run(seconds: 2)
        #expect(try again.status("delay_ms") == "3000", "the board's delay")
        #expect(try again.status("volume") == "100")
        #expect(try again.console("channel list").contains("Studio") == false, "the saved channel gone")
        #expect(try again.console("preset 2").contains("refused"), "the preset gone")
        let access = try #require(again.web)
        #expect(access.passwords.storedHash() == nil)
        #expect(access.setupLeft(now: SystemClock.monotonicNow()) > .seconds(29 * 60), "the page's window open")
        #expect(!FileManager.default.fileExists(atPath: FactoryReset.markPath(besideState: file("state.json"))))
        #expect(try again.status("channel") == "Home")
        // A control held on from the reset (or stuck) does not reset the box again at once;
        // a minute on, a hand on the box does.
        _ = again.playout.apply(.factoryReset, now: again.clock.now())
        try again.settleFileErrands()
        #expect(!again.playout.restartAsked && FileManager.default.fileExists(atPath: file("state.json")) == false)
        try again.run(seconds: 61)
        #expect(
            Eventually.holds(within: 5) { FileManager.default.fileExists(atPath: file("state.json")) },
            "saved again meanwhile")
        _ = again.playout.apply(.factoryReset, now: again.clock.now())
        try again.settleFileErrands()
        #expect(again.playout.restartAsked && !FileManager.default.fileExists(atPath: file("state.json")))
    }

    /// `--forget-wifi`: the hotspot's own password goes too, and the next start's keeper is
    /// told to forget the networks (the box that reset stops at once); without it, both stay.
    @Test func forgettingTheWiFiIsLeftToTheNextStart() throws {
        for forget in [false, true] {
            let box = try VirtualAppliance(board: Self.board, web: true)
            let state = box.directory.appendingPathComponent("state.json").path
            let hotspot = box.directory.appendingPathComponent("hotspot-password")
            try "4815 1623 4208 4242\n".write(to: hotspot, atomically: true, encoding: .utf8)
            try box.run(seconds: 1)
            let answer = try box.console(forget ? "factory reset --forget-wifi" : "factory reset")
            #expect(answer.contains(forget ? "the Wi-Fi networks it joined forgotten" : "its Wi-Fi kept"), "\(answer)")
            #expect(FileManager.default.fileExists(atPath: hotspot.path) == !forget)
            #expect(FactoryReset.takeMark(besideState: state) == FactoryReset.Mark(forgetWiFi: forget))
            #expect(FactoryReset.takeMark(besideState: state) == nil, "taken once")
        }
    }

    /// A reset that cannot remove its files says so, and the box plays on, saving again.
    @Test func aResetThatCannotRemoveItsFilesChangesNothingElse() throws {
        let box = try VirtualAppliance(board: Self.board, web: true)
        try box.run(seconds: 1)
        #expect(try box.console("delay 8").contains("delay_ms: 8000"))
        // A directory where the mark would go: the removal cannot finish.
        let mark = FactoryReset.markPath(besideState: box.directory.appendingPathComponent("state.json").path)
        try FileManager.default.createDirectory(
            atPath: mark + "/inside", withIntermediateDirectories: true)
        let answer = try box.console("factory reset")
        #expect(answer.hasPrefix("error: the box could not be reset"), "\(answer)")
        #expect(!box.playout.restartAsked)
        #expect(try box.console("delay 9").contains("delay_ms: 9000"))
        try box.run(seconds: 3)
        let saved = {
            (try? String(contentsOf: box.directory.appendingPathComponent("state.json"), encoding: .utf8)) ?? ""
        }
        #expect(Eventually.holds(within: 5) { saved().contains("9000") }, "saving again: \(saved())")
    }
}
