import DelayboxEngine
import DelayboxPlatform
import DelayboxUnits
import DelayboxWeb
import Foundation
import Testing

@testable import DelayboxApp

/// Issues 56 and 60: the box says where it is — its name and its page's address by number,
/// as a phone's address bar takes it — and a hand on the box (`say_address`) opens the
/// page's window for a first password, which a start only says is open.
@Suite(.timeLimit(.minutes(10))) struct SayWhereTheBoxIsTests {
    /// The whole appliance: the control's command says the box's name on the output (the
    /// programme paused, so what the jack hears is the speech), and opens the page's window
    /// that had closed; with a password set, the window stays shut and the password kept.
    @Test func aHandOnTheBoxIsAnsweredAloudAndOpensThePagesWindow() throws {
        let port = 20_000 + Int.random(in: 0..<20_000)
        let box = try VirtualAppliance(
            board: ApplianceScenarioTests.board(extraChannel: "web:\n  port: \(port)"), web: true)
        let access = try #require(box.web)
        try box.run(seconds: 4)
        _ = try box.console("pause")
        try box.run(seconds: 1)
        let before = box.clock.now()
        let monotonic = SystemClock.monotonicNow()
        let said = try #require(
            box.playout.sayWhereTheBoxIs(byHand: true), "a box without wifi: says where it is at once")
        #expect(said.spoken.hasPrefix("This is Delaybox \(HostName.current())."), "\(said.spoken)")
        // The window counts from the board's boot; the hand opens it for 30 min from now.
        #expect(access.setupLeft(now: monotonic) >= WebApp.setupWindow - .seconds(5), "opened by the hand")
        #expect(said.spoken.contains("Choose its password") == said.logLine.contains("http"), "\(said.spoken)")
        // espeak-ng runs beside the playout: real time passes until its clip is mixed in.
        let deadline = Date().addingTimeInterval(10)
        while box.jack.peak(from: before, to: box.clock.now()) < 0.05, Date() < deadline {
            try box.run(seconds: 0.2)
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(box.jack.peak(from: before, to: box.clock.now()) >= 0.05, "the speech was heard")
        // With a password set, a hand says where the box is and changes nothing.
        #expect(access.set(password: "a long and unusual phrase") == nil)
        let opened = access.setupOpened
        let kept = try #require(box.playout.sayWhereTheBoxIs(byHand: true))
        #expect(!kept.spoken.contains("password") && access.setupOpened == opened)
        #expect(access.passwords.storedHash() != nil)
    }
}
