import DelayboxAnswers
import DelayboxConfig
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
        configuration.initialDelay = .milliseconds(5_000)
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

    /// `play --json`'s lines, typed (`PlayLine`), are the documented fields of each kind
    /// (docs/stream-events.md), written as the dictionaries were, and decode back.
    @Test func eachPlayLineIsItsDocumentedFieldsAndDecodesBack() throws {
        let ad = StreamEvent.adBreak(AdBreak(audioURL: "http://clips/ad.mp3", durationMs: 6_000))
        let cases: [(EngineNotification, [String: Any])] = [
            (
                .stateChanged(from: .buffering, to: .playing, reason: .bufferFilled),
                ["type": "state", "from": "buffering", "to": "playing", "reason": "buffer filled"]
            ),
            (.availableDelayChanged(milliseconds: 4_000), ["type": "available_delay", "ms": 4_000]),
            (
                .delayChanged(milliseconds: 7_000, reason: .requested),
                ["type": "delay", "ms": 7_000, "reason": "requested"]
            ),
            (
                .eventTookEffect(
                    TimelineEvent(event: ad, position: 96_000), .executedByJump, outputFrame: 480,
                    elapsedFrames: 48_000),
                [
                    "type": "event", "kind": "ad", "detail": "ad break 6000 ms (http://clips/ad.mp3)",
                    "transition": "executedByJump", "elapsed_ms": 1_000, "output_frame": 480,
                ]
            ),
            (
                .eventTookEffect(
                    TimelineEvent(event: .title("Kick-off"), position: 0), .reached, outputFrame: 9, elapsedFrames: 0),
                [
                    "type": "event", "kind": "title", "detail": "title 'Kick-off'", "transition": "reached",
                    "output_frame": 9,
                ]
            ),
            (
                .eventNotTriggered(ad, reason: "resent on reconnecting"),
                [
                    "type": "event", "kind": "ad", "detail": "ad break 6000 ms (http://clips/ad.mp3)",
                    "transition": "not_triggered", "reason": "resent on reconnecting",
                ]
            ),
            (.audioLost(atPosition: 480_000, frames: 4_800), ["type": "audio_lost", "position": 480_000, "ms": 100]),
            (.spliced(overlapFrames: 96_000), ["type": "spliced", "overlap_ms": 2_000]),
            (.pauseExceededMaximum(droppedFrames: 48_000), ["type": "pause_dropped", "ms": 1_000]),
            (.packetRejected("empty payload"), ["type": "packet_rejected", "reason": "empty payload"]),
            (.reconnectFailed("refused"), ["type": "reconnect_failed", "reason": "refused"]),
        ]
        for (notification, fields) in cases {
            let line = NotificationLog.json(notification, atSeconds: 12.3456)
            #expect(line == DictionaryJSON.encode(fields.merging(["t": 12.346]) { $1 }), "\(notification)")
            let decoded = try JSONDecoder().decode(PlayLine.self, from: Data(line.utf8))
            #expect(decoded.type == fields["type"] as? String && decoded.t == 12.346, "\(line)")
        }
    }
}
