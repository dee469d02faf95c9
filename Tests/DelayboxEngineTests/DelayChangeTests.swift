import DelayboxEngine
import DelayboxTestSupport
import Testing

@Suite struct DelayChangeTests {
    /// A rig that has been recording for `seconds` at the minimum delay.
    func recordingRig(seconds: Int64, outputDelayFrames: Int = 0) throws -> EngineRig {
        let rig = try EngineRig(configuration: EngineConfiguration(), outputDelayFrames: outputDelayFrames)
        rig.run(milliseconds: seconds * 1000)
        return rig
    }

    @Test func aDelayChangeIsCrossfadedAndLandsExactly() throws {
        let rig = try recordingRig(seconds: 40)
        let changeFrame = Int(rig.output.frameCount)
        #expect(rig.engine.setDelay(milliseconds: 30_000, now: rig.now) == 30_000)
        rig.run(milliseconds: 2_000)
        let around = rig.output.left((changeFrame - 960)..<(changeFrame + 4 * 960))
        #expect(SignalChecks.largestStep(around) <= SignalChecks.toneStep * 1.5, "no click across the change")
        let last = Int(rig.output.frameCount) - 960
        let heard = try #require(rig.heardDelayMs(atOutput: last))
        #expect(abs(heard - 30_000) < 1)
        let status = rig.engine.status(at: rig.now)
        #expect(abs(status.heardDelayMs - 30_000) < 1, "the engine's own account agrees with the audio")
    }

    @Test func aDelayBeyondWhatIsHeldIsClampedAndSaysSo() throws {
        let rig = try recordingRig(seconds: 10)
        let set = rig.engine.setDelay(milliseconds: 600_000, now: rig.now)
        let available = rig.engine.status(at: rig.now).availableDelayMs
        #expect(set == available)
        #expect(available >= 13_900 && available <= 14_100, "4 s burst + 10 s recorded")
        rig.run(milliseconds: 200)
        #expect(rig.notifications { notification -> DelayChangeReason? in
            guard case .delayChanged(_, let reason) = notification else { return nil }
            return reason
        }.contains(.clampedToAvailable))
    }

    @Test func jumpToLiveSetsTheSmallestDelay() throws {
        let rig = try recordingRig(seconds: 20)
        rig.engine.setDelay(milliseconds: 15_000, now: rig.now)
        rig.run(milliseconds: 1_000)
        let live = rig.engine.jumpToLive(now: rig.now)
        #expect(live == 1_000, "the 1 s initial buffer, no arrival lag, no output delay")
        rig.run(milliseconds: 1_000)
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 1_000) < 1)
    }

    @Test func theOutputDelayIsCompensatedSoTheDelayHoldsAtTheJack() throws {
        let rig = try recordingRig(seconds: 20, outputDelayFrames: 4_800)
        rig.engine.setDelay(milliseconds: 10_000, now: rig.now)
        rig.run(milliseconds: 2_000)
        let heard = try #require(rig.heardDelayMs(atOutput: Int(rig.output.frameCount) - 960))
        #expect(abs(heard - 10_000) < 1, "100 ms of output delay included")
    }

    @Test func theAvailableDelayIsReportedAsItGrowsAtMostOncePerSecond() throws {
        var configuration = EngineConfiguration()
        configuration.maxDelayMs = 20_000
        let rig = try EngineRig(configuration: configuration)
        rig.run(milliseconds: 30_000)
        let reports = rig.notifications { notification -> Int64? in
            guard case .availableDelayChanged(let ms) = notification else { return nil }
            return ms
        }
        #expect(reports.count >= 15 && reports.count <= 18)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $1 - $0 >= 1_000 || $1 == 20_000 })
        #expect(reports.last == 20_000, "capped at the maximum")
        #expect(rig.engine.status(at: rig.now).availableDelayMs == 20_000)
    }
}
