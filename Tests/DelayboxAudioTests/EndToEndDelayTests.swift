import DelayboxAudio
import Testing

/// Engine → ring → audio pump → libasound's `file` plugin, read back (`FileCaptureRig`):
/// the heard delay to the sample, and how the path recovers when either thread stalls.
@Suite(.timeLimit(.minutes(10))) struct EndToEndDelayTests {
    @Test func theCapturedOutputIsTheStreamAtTheSetDelayToTheSample() throws {
        let rig = try FileCaptureRig(delayMs: 3_000)
        rig.run(seconds: 8)
        #expect(rig.engine.delayInFrames == 3 * 48_000)
        let offsets = try rig.heardOffsets().compactMap { $0 }
        #expect(offsets.count > 4 * 48_000, "\(offsets.count) frames carried a code")
        let worst = offsets.map(abs).max() ?? .max
        #expect(worst <= 1, "the heard delay is off by up to \(worst) frames")
    }
}

extension EndToEndDelayTests {
    /// A thread stalls for 300 ms at 5 s: the playout thread (the ring runs dry; the audio
    /// thread feeds the DAC silence) or the audio thread itself (the device underruns).
    /// Either way the jack loses no more than the stall, and within 200 ms of its end
    /// every frame is heard at the set delay again.
    @Test(arguments: [FileCaptureRig.Stall.Thread.playout, .audio])
    func afterAStallTheDelayIsExactAgain(thread: FileCaptureRig.Stall.Thread) throws {
        let rig = try FileCaptureRig(delayMs: 3_000)
        let stall = FileCaptureRig.Stall(thread: thread, atMs: 5_000, lengthMs: 300)
        rig.run(seconds: 8, stalls: [stall])
        switch thread {
        case .playout:
            #expect(rig.pump.ringUnderruns.load(ordering: .relaxed) > 0)
            #expect(rig.output.underruns == 0, "the audio thread kept the DAC fed")
        case .audio:
            #expect(rig.output.underruns == 1)
        }
        let offsets = try rig.heardOffsets()
        // The jack's timeline is whole: 8 s of it, plus what the device held at the end.
        #expect(offsets.count >= 8 * 48_000)
        // Around the stall (it begins up to a ring and a device buffer later at the jack).
        let stallFrames = Int(stall.lengthMs * 48)
        let around = Int(stall.atMs * 48)..<Int((stall.atMs + stall.lengthMs + 200) * 48)
        let silent = around.filter { offsets[$0] == nil }.count
        #expect(silent <= stallFrames, "\(silent) frames silent for a \(stallFrames)-frame stall")
        #expect(silent >= stallFrames / 2, "a stall longer than the cushion is heard: \(silent) frames")
        let after = offsets[around.upperBound...].compactMap { $0 }
        #expect(after.count > 2 * 48_000)
        let worst = after.map(abs).max() ?? .max
        #expect(worst <= 1, "after the stall the heard delay is off by up to \(worst) frames")
    }
}
