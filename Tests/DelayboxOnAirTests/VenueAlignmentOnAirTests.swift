import DelayboxTestSupport
import Foundation
import Testing

/// Issue 58, a room's boxes as one, end to end in real time: a live Icecast stream of time
/// marks (HeardDelayTests'), two `delaybox run` boxes of one MQTT group on a real mosquitto
/// at the same delay, the second started 10 s later and behind a path that holds the
/// stream 20 ± 10 ms (in order, as `tc netem` would). Each mark heard at both outputs is
/// timed on this machine's clock: once the room has compared its lines, the two play each
/// mark within 5 ms of each other (95th percentile, `venue_alignment_ms_p95`). Without
/// the group the second plays them ~14 ms later: its path's least lag. A run in which a
/// box's playout was late (a period of silence, then slipped back) is run once more.
@Suite(.serialized, .timeLimit(.minutes(15))) struct VenueAlignmentOnAirTests {
    @Test func twoBoxesOfARoomPlayAsOneThoughOnePathJitters() throws {
        let directory = try ExternalTool.temporaryDirectory("venue")
        defer { try? FileManager.default.removeItem(at: directory) }
        let marks = try HeardDelayTests.marks(seconds: 200, in: directory)
        let server = try IcecastServer()
        let t0 = try server.startPacedSource(
            mount: "/marks.mp3", file: marks.path, format: .mp3(frameBytes: 384, frameSeconds: 0.024))
        try server.waitForBurst(mount: "/marks.mp3")
        let broker = try MosquittoBroker()
        // The room's time as a venue has it: chrony, asked by both boxes (one machine's clock,
        // so it agrees to microseconds).
        let chrony = try ChronyPair()
        try chrony.start()
        let proxy = try JitterProxy(targetPort: server.port, baseMs: 20, jitterMs: 10)
        let delay = 3.0
        func box(_ name: String, port: Int, seconds: Int) throws -> OnAirAppliance {
            try OnAirAppliance(
                root: HeardDelayTests.root, channels: [("Marks", "http://127.0.0.1:\(port)/marks.mp3")], delay: delay,
                seconds: seconds,
                extra: """
                    web:
                      enabled: false
                    mqtt:
                      broker: mqtt://127.0.0.1:\(broker.port)
                      client_id: \(name)
                      group: room
                    """, environment: chrony.environment)
        }
        /// The room once: the alignment's p95 and what it was made of, and the periods the
        /// two boxes' playout threads were late for (each leaves the box late by a period, slipped
        /// back at 1 ms a second: a loaded machine's, not the room's).
        func room() throws -> (p95: Double, listed: String, lateRenders: Int, moved: Bool) {
            let near = try box("near", port: server.port, seconds: 60)
            Thread.sleep(forTimeInterval: 10)  // the point: a box that joins a room playing
            let far = try box("far", port: proxy.port, seconds: 50)
            near.wait(until: 57)
            let lateRenders = try [near, far].map { box in
                try box.ctl(["stats"]).output.split(separator: "\n").first { $0.hasPrefix("late_renders: ") }
                    .flatMap { Int($0.dropFirst("late_renders: ".count)) } ?? 0
            }.reduce(0, +)
            let (nearRun, farRun) = (near.finish(), far.finish())
            #expect(nearRun.status == 0 && farRun.status == 0, "\(farRun.log)")
            /// Each mark heard: when (CLOCK_MONOTONIC, s) and its heard delay's error (ms).
            func heard(_ box: OnAirAppliance, _ log: String) throws -> [(at: Double, ms: Double)] {
                let anchor = try #require(OnAirAppliance.firstFrameHeardMonotonic(in: log), "\(log)")
                return try HeardDelayTests.heardErrors(
                    anchor: anchor, wav: box.wav, marks: marks.starts, t0: t0, delay: delay
                )
                .map { (anchor + $0.at, $0.ms) }
            }
            let nearMarks = try heard(near, nearRun.log), farMarks = try heard(far, farRun.log)
            // From 30 s into the second box's run: its placement settled, the room compared.
            let farStart = try #require(OnAirAppliance.firstFrameHeardMonotonic(in: farRun.log))
            let apart = farMarks.filter { $0.at >= farStart + 30 }.compactMap { mark in
                nearMarks.first { abs($0.at - mark.at) < 0.5 }.map { mark.ms - $0.ms }
            }
            #expect(apart.count >= 10, "marks heard by both: \(apart.count)")
            let sorted = apart.map(abs).sorted()
            let p95 = sorted.isEmpty ? .infinity : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
            let moved = [nearRun, farRun].contains { $0.log.contains("playing as one with the room") }
            return (p95, apart.map { String(format: "%.1f", $0) }.joined(separator: " "), lateRenders, moved)
        }
        var outcome = try room()
        if outcome.p95 > 5, outcome.lateRenders > 0 {
            print("venue: \(outcome.lateRenders) late render(s) while measuring (\(outcome.listed)): once more")
            outcome = try room()
        }
        print(
            "venue_alignment_ms_p95: \(String(format: "%.2f", outcome.p95)) (far minus near per mark, ms: \(outcome.listed))"
        )
        #expect(
            outcome.p95 <= 5, "far minus near per mark (ms): \(outcome.listed); late renders \(outcome.lateRenders)")
        #expect(outcome.moved, "the room moved a line")
    }
}
