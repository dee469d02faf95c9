import DelayboxEngine
import DelayboxTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct DelayChangeTests {
    /// A rig that has been recording for `seconds` at the minimum delay.
    func recordingRig(seconds: Int64, outputDelayFrames: Int = 0) throws -> EngineRig {
        let rig = try EngineRig(configuration: EngineConfiguration(), outputDelayFrames: outputDelayFrames)
        rig.run(milliseconds: seconds * 1000)
        return rig
    }

    @Test func aDelayChangeIsCrossfadedAndLandsExactly() throws {
        let rig = try recordingRig(seconds: 40)
        let changeFrame = Int(rig.output.frameCount)
        #expect(rig.engine.setDelay(.milliseconds(30_000), now: rig.now) == .milliseconds(30_000))
        rig.run(milliseconds: 2_000)
        let around = rig.output.left((changeFrame - 960)..<(changeFrame + 4 * 960))
        #expect(SignalChecks.largestStep(around) <= SignalChecks.toneStep * 1.5, "no click across the change")
        let last = Int(rig.output.frameCount) - 960
        let heard = try #require(rig.heardDelayMs(atOutput: last))
        #expect(abs(heard - 30_000) < 1)
        let status = rig.engine.status(at: rig.now)
        #expect(abs(status.heardDelayMs - 30_000) < 1, "the engine's own account agrees with the audio")
    }

    /// A listener whose TV runs 30 s behind sets 30 s with 14 s held: playout fades out
    /// (recording goes on), says how long until the delay is there, and plays again at
    /// exactly 30 s when it is — from the oldest audio held, without a click (issue 26).
    @Test func aDelayBeyondWhatIsHeldIsReachedByWaiting() throws {
        let rig = try recordingRig(seconds: 10)
        let available = rig.engine.status(at: rig.now).availableDelay.milliseconds
        #expect(available >= 13_900 && available <= 14_100, "4 s burst + 10 s recorded")
        #expect(rig.engine.setDelay(.milliseconds(30_000), now: rig.now) == .milliseconds(30_000))
        rig.run(milliseconds: 20)
        let building = rig.engine.status(at: rig.now)
        #expect(building.state == .buffering && building.delay.milliseconds == 30_000)
        let wait = try #require(building.delayToBuild?.milliseconds)
        #expect(abs(wait - (30_000 - available)) <= 40, "\(wait) ms to wait")
        let held = Int(rig.output.frameCount)
        #expect(!rig.run(until: { $0.engine.state == .playing }, limitMs: wait - 100), "not before it is there")
        #expect(rig.run(until: { $0.engine.state == .playing }, limitMs: 200))
        let resumed = Int(rig.output.frameCount)
        rig.run(milliseconds: 2_000)
        // Silent while it built (after the 5 ms fade), no click where it plays again.
        #expect(rig.output.samples[(held + 480) * 2..<(resumed - 960) * 2].allSatisfy { $0 == 0 })
        #expect(
            SignalChecks.largestStep(rig.output.left((resumed - 960)..<(resumed + 2 * 960))) <= SignalChecks.toneStep
                * 1.5)
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 30_000) < 1, "\(heard) ms")
        let reasons: [StateChangeReason] = rig.notifications {
            if case .stateChanged(_, .buffering, let why) = $0 { why } else { nil }
        }
        #expect(reasons.last == .buildingDelay)
    }

    /// Beyond the maximum delay the target is the maximum; while paused, what is held.
    @Test func aDelayBeyondTheMaximumOrWhilePausedIsClampedAndSaysSo() throws {
        let rig = try recordingRig(seconds: 10)
        #expect(rig.engine.setDelay(.milliseconds(600_000), now: rig.now) == EngineConfiguration().maxDelay)
        rig.engine.jumpToLive(now: rig.now)
        rig.run(milliseconds: 2_000)
        rig.engine.pause(now: rig.now)
        let available = rig.engine.status(at: rig.now).availableDelay
        #expect(rig.engine.setDelay(.milliseconds(60_000), now: rig.now) == available)
        rig.run(milliseconds: 200)
        let reasons: [DelayChangeReason] = rig.notifications {
            if case .delayChanged(_, let why) = $0 { why } else { nil }
        }
        #expect(reasons.filter { $0 == .clampedToAvailable }.count == 2, "\(reasons)")
    }

    @Test func jumpToLiveSetsTheSmallestDelay() throws {
        let rig = try recordingRig(seconds: 20)
        rig.engine.setDelay(.milliseconds(15_000), now: rig.now)
        rig.run(milliseconds: 1_000)
        let live = rig.engine.jumpToLive(now: rig.now)
        #expect(live == .milliseconds(1_000), "the 1 s initial buffer, no arrival lag, no output delay")
        rig.run(milliseconds: 1_000)
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 1_000) < 1)
    }

    @Test func theOutputDelayIsCompensatedSoTheDelayHoldsAtTheJack() throws {
        let rig = try recordingRig(seconds: 20, outputDelayFrames: 4_800)
        rig.engine.setDelay(.milliseconds(10_000), now: rig.now)
        rig.run(milliseconds: 2_000)
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 10_000) < 1, "100 ms of output delay included")
    }

    /// A late playout thread: the output played a period of silence instead, so everything
    /// after it is heard 20 ms late. That gap is already heard; the audio it displaced is
    /// skipped with one crossfade, and the delay holds again within the next second.
    @Test func aPeriodOfSilenceWhilePlayoutWasLateIsSkippedNotSlippedBack() throws {
        let rig = try recordingRig(seconds: 20, outputDelayFrames: 4_800)
        rig.engine.setDelay(.milliseconds(10_000), now: rig.now)
        rig.run(milliseconds: 10_000)
        let resyncs = rig.engine.statistics.resyncs
        rig.missPeriod()
        rig.run(milliseconds: 1_000)
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 10_000) < 1, "not 20 ms late, slipping back at 1 ms a second: \(heard)")
        #expect(rig.engine.statistics.resyncs == resyncs + 1)
    }

    @Test func theAvailableDelayIsReportedAsItGrowsAtMostOncePerSecond() throws {
        var configuration = EngineConfiguration()
        configuration.maxDelay = .milliseconds(20_000)
        let rig = try EngineRig(configuration: configuration)
        rig.run(milliseconds: 30_000)
        let reports = rig.notifications { notification -> Int64? in
            guard case .availableDelayChanged(let ms) = notification else { return nil }
            return ms
        }
        #expect(reports.count >= 15 && reports.count <= 18)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $1 - $0 >= 1_000 || $1 == 20_000 })
        #expect(reports.last == 20_000, "capped at the maximum")
        #expect(rig.engine.status(at: rig.now).availableDelay.milliseconds == 20_000)
    }
}
