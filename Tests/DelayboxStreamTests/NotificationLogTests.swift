import DelayboxApp
import Foundation
import Testing

@Suite struct NotificationLogTests {
    /// `events` on the console: what, where in the stream, when heard.
    @Test func anEventEntrySaysItsStreamTimeAndWhenItWasHeard() {
        let heard = Date(timeIntervalSince1970: 3_600 * 24 + 45 * 60 + 12.345)
        let entry = NotificationLog.eventEntry("event: goal started", streamFrame: 48_000 * 125 + 12, heardAt: heard,
                                               timeZone: TimeZone(identifier: "UTC")!)
        #expect(entry == "event: goal started · stream 125.000 s · heard 00:45:12.345")
    }
}
