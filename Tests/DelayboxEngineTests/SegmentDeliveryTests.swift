import DelayboxTestSupport
import Testing

@testable import DelayboxEngine

/// Issue 67: a station delivered in segments (HLS, DASH) in virtual time — each 20 ms packet
/// reaches the box when its segment is complete, the connection's first burst is the whole
/// segments listed. A delay shorter than a segment cannot hold: the engine waits for the
/// first pause between deliveries, plays at the pause and a tenth more, and then never
/// stops (on air it played 3 s, stopped 7.4 s, and stopped again at 20 s and 50 s while the
/// delay crept up a few hundred ms each time).
@Suite(.timeLimit(.minutes(10))) struct SegmentDeliveryTests {
    func rig(delayMs: Int64, segmentSeconds: Int64) throws -> EngineRig {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(delayMs)
        return try EngineRig(
            configuration: configuration, historyPackets: 3_000, burstPackets: 3 * segmentSeconds * 50,
            segmentPackets: segmentSeconds * 50)
    }

    /// The delays the engine raised to, in ms.
    func raises(_ rig: EngineRig) -> [Int64] {
        rig.notifications {
            if case .delayChanged(let ms, .raisedToMinimum) = $0 { ms } else { nil }
        }
    }

    @Test func tenSecondSegmentsAtThreeSecondsPlayOnceAtTheLeastDelayTheyAllow() throws {
        let rig = try rig(delayMs: 3_000, segmentSeconds: 10)
        rig.run(milliseconds: 180_000)
        let status = rig.engine.status(at: rig.now)
        #expect(status.statistics.underruns == 0, "stopped at a segment's end")
        #expect(rig.engine.state == .playing)
        // 10 s between deliveries, a tenth more, the initial buffer's second.
        let raised = raises(rig)
        #expect(raised.count == 1 && (12_000...12_100).contains(raised.first ?? 0), "\(raised)")
        // It started once the second delivery came (10 s in), and was silent never after.
        let sounds = SignalChecks.silentRuns(rig.output.samples).filter { $0.frames > 960 }
        #expect(sounds.count == 1, "\(sounds)")
        let start = try #require(sounds.first).frames
        #expect((470_000...500_000).contains(start), "started at frame \(start)")
        // Heard at the raised delay, to the end.
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - Double(raised.first ?? 0)) < 1, "heard \(heard) ms")
    }

    @Test func aDelayLongerThanTheSegmentsIsKept() throws {
        let rig = try rig(delayMs: 20_000, segmentSeconds: 2)
        rig.run(milliseconds: 90_000)
        #expect(raises(rig).isEmpty)
        #expect(rig.engine.status(at: rig.now).statistics.underruns == 0)
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 20_000) < 1, "heard \(heard) ms")
    }

    /// A playlist that never pauses (a recording's, read back to back) is played anyway,
    /// at the delay set, once it has flowed `firstPauseWait`.
    @Test func segmentsThatNeverPauseArePlayedAfterAWhile() throws {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(3_000)
        let rig = try EngineRig(
            configuration: configuration, historyPackets: 3_000, burstPackets: 1_000, segmentPackets: 1)
        rig.run(milliseconds: 40_000)
        #expect(raises(rig).isEmpty)
        let silent = try #require(SignalChecks.silentRuns(rig.output.samples).first)
        #expect(silent.start == 0 && (700_000...730_000).contains(silent.frames), "\(silent)")
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 3_000) < 1, "heard \(heard) ms")
    }

    @Test func pausesBetweenDeliveriesAreMeasuredAndForgotten() {
        var cadence = SegmentCadence()
        let second = Int64(48_000)
        cadence.arrived(at: 0)
        cadence.arrived(at: second / 10)  // a continuous stream's packets: no pause
        #expect(cadence.longestPauseFrames == nil && cadence.allowanceFrames(atLocal: second) == 0)
        cadence.arrived(at: 6 * second)
        cadence.arrived(at: 16 * second)
        #expect(cadence.longestPauseFrames == 10 * second)
        #expect(cadence.allowanceFrames(atLocal: 16 * second) == 11 * second)
        // A reconnect's wait is no pause between deliveries.
        cadence.connectionOpened()
        cadence.arrived(at: 60 * second)
        #expect(cadence.longestPauseFrames == 10 * second)
        // Shorter pauses keep the longest for 5 minutes, then take its place.
        cadence.arrived(at: 62 * second)
        #expect(cadence.longestPauseFrames == 10 * second)
        cadence.arrived(at: 320 * second)
        #expect(cadence.longestPauseFrames == 258 * second)
        cadence.arrived(at: 321 * second)
        cadence.arrived(at: 700 * second)
        #expect(cadence.longestPauseFrames == 379 * second)
        // None for 5 minutes: the stream flows on its own, no allowance.
        #expect(cadence.allowanceFrames(atLocal: 1_001 * second) == 0)
    }
}
