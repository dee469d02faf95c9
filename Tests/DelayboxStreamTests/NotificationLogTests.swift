import DelayboxApp
import DelayboxEngine
import DelayboxLog
import DelayboxTestSupport
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct NotificationLogTests {
    /// What the journal gets at INFO or above from the engine (the appliance logs each
    /// notification at `NotificationLog.level(of:)`): connecting to the set 5 s delay,
    /// then ten minutes of steady playing while the buffer fills to its 5 min maximum, in
    /// virtual time. A maintainer's lines only — the state changes — where the available
    /// delay once wrote a line a second (300 here).
    @Test func tenMinutesOfSteadyPlayingWriteAtMostFiveLinesAtInfo() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelayMs = 5_000
        let rig = try EngineRig(configuration: configuration, burstPackets: 50)
        rig.run(milliseconds: 600_000)
        let all: [EngineNotification] = rig.notifications { $0 }
        let loud = all.filter { NotificationLog.level(of: $0) >= .info }.map(NotificationLog.text)
        #expect(rig.engine.state == .playing)
        #expect(all.count - loud.count >= 290, "the fill is still said, at DEBUG: \(all.count - loud.count) lines")
        #expect(loud.count <= 5, "\(loud)")
        print("ten minutes of playing: \(loud.count) lines at INFO, \(all.count - loud.count) at DEBUG")
    }

    /// `events` on the console: what, where in the stream, when heard.
    @Test func anEventEntrySaysItsStreamTimeAndWhenItWasHeard() {
        let heard = Date(timeIntervalSince1970: 3_600 * 24 + 45 * 60 + 12.345)
        let entry = NotificationLog.eventEntry(
            "event: goal started", streamFrame: 48_000 * 125 + 12, heardAt: heard, utcOffsetSeconds: 0)
        #expect(entry == "event: goal started · stream 125.000 s · heard 00:45:12.345")
        // Central European Time, an hour ahead; and a time before 1970 (the milliseconds count up within its second).
        #expect(
            NotificationLog.eventEntry("e", streamFrame: 0, heardAt: heard, utcOffsetSeconds: 3_600).hasSuffix(
                "heard 01:45:12.345"))
        #expect(
            NotificationLog.eventEntry(
                "e", streamFrame: 0, heardAt: Date(timeIntervalSince1970: -0.25), utcOffsetSeconds: 0
            )
            .hasSuffix("heard 23:59:59.750"))
    }
}
