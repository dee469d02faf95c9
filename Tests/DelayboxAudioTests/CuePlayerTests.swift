import DelayboxAudio
import DelayboxEngine
import DelayboxOutput
import DelayboxSimulation
import DelayboxTestSupport
import Testing

/// The controls' sounds as the audio thread plays them: over the programme, from the
/// next period written, within the device's buffer of being asked for.
@Suite(.timeLimit(.minutes(10))) struct CuePlayerTests {
    /// 30 ms at +0.5 left / −0.5 right, and 5 ms at 0.25.
    static let long = [Float]((0..<1_440).flatMap { _ in [0.5, -0.5] }), short = [Float](repeating: 0.25, count: 480)

    static func mix(_ player: CuePlayer, periods: Int, over programme: Float = 0) -> [Float] {
        var out = [Float](repeating: programme, count: periods * 960 * 2)
        out.withUnsafeMutableBufferPointer { buffer in
            for period in 0..<periods { player.mix(into: buffer.baseAddress! + period * 1_920, frames: 960) }
        }
        return out
    }

    @Test func aSoundIsAddedFromTheNextPeriodOnceAcrossPeriods() {
        let player = CuePlayer(sounds: [Self.long, Self.short])
        #expect(Self.mix(player, periods: 1, over: 0.1).allSatisfy { $0 == 0.1 }, "nothing asked for")
        player.play(0)
        let heard = Self.mix(player, periods: 3, over: 0.1)
        #expect(
            heard[..<(1_440 * 2)].enumerated().allSatisfy {
                $0.element == ($0.offset % 2 == 0 ? 0.6 : Float(0.1) - 0.5)
            },
            "30 ms over the programme, across two periods")
        #expect(heard[(1_440 * 2)...].allSatisfy { $0 == 0.1 }, "then gone")
    }

    @Test func soundsAskedTogetherOverlap() {
        let player = CuePlayer(sounds: [Self.long, Self.short])
        player.play(0)
        player.play(1)
        let heard = Self.mix(player, periods: 1)
        #expect(heard[0] == 0.75 && heard[1] == -0.25 && heard[479] == -0.25 && heard[480] == 0.5 && heard[481] == -0.5)
    }

    /// Issue 44: a click (0.25) over a full-scale programme summed past the ceiling (1.14
    /// over a programme at it). Now the programme ducks under the sounds for as long as
    /// they play, and comes back in a ramp, nothing at the jack above the ceiling.
    @Test func aSoundOverAFullScaleProgrammeStaysUnderTheCeiling() {
        let player = CuePlayer(sounds: [Self.long, Self.short])
        player.play(0)
        player.play(1)
        let programme = AudioFormat.ceiling
        let heard = Self.mix(player, periods: 4, over: programme)
        let peak = heard.map(abs).max() ?? 0
        #expect(peak <= AudioFormat.ceiling, "peak \(peak), ceiling \(AudioFormat.ceiling)")
        #expect(
            heard[0] > programme * 0.5 && heard[1] < 0,
            "the sounds still heard over the ducked programme: \(heard[0]), \(heard[1])")
        let last = heard.suffix(960 * 2)
        #expect(last.allSatisfy { $0 == programme }, "the programme back whole once the sounds are over")
        let steps = zip(heard.dropFirst(2), heard).enumerated().filter { $0.offset % 2 == 0 }.map {
            abs($0.element.0 - $0.element.1)
        }
        let ramp = steps[1_920..<2_880].max() ?? 0  // the period after the sounds (left channel, by frame)
        #expect(ramp < 0.01, "the programme comes back in a ramp, not a step: \(ramp)")
    }

    @Test func eightWaitAtMostWhileTheAudioThreadIsAway() {
        let player = CuePlayer(sounds: [Self.short])
        #expect((0..<8).allSatisfy { _ in player.play(0) })
        #expect(!player.play(0), "the ninth is refused")
        _ = Self.mix(player, periods: 1)
        #expect(player.play(0), "taken: room again")
    }

    /// While the device is down, sounds asked for play into nothing at the clock's pace, as
    /// the ring does: none is saved up to burst out when it returns.
    @Test func soundsAreNotSavedUpWhileTheDeviceIsDown() {
        let clock = ManualClock()
        let cues = CuePlayer(sounds: [Self.short])
        let pump = AudioPump(
            ring: FrameRing(capacityFrames: 4 * 960), timing: OutputTiming(), gain: MasterGain(), clock: clock,
            sleeper: ManualSleeper(clock: clock), driver: nil, nominalPeriodFrames: 960,
            cues: cues
        ) { () throws(OutputError) in throw .deviceLost(reason: "no card") }
        for _ in 0..<8 {
            #expect(cues.play(0))
            pump.step()
        }
        #expect((0..<8).allSatisfy { _ in cues.play(0) }, "each was taken as its period passed")
    }

    /// A ring holding 320 ms of rendered programme: a click asked for now is
    /// heard at the jack within the device's buffer (4 × 20 ms), not after the ring.
    @Test func aCueIsHeardWithinTheDeviceBufferNotBehindTheRing() {
        let clock = ManualClock()
        let device = WatchedOutput(name: "heard", clock: clock)
        /// When each period written is heard, and its first left sample.
        var heard: [(at: Instant, first: Float)] = []
        device.afterWrite = { period, at in heard.append((at, period[0])) }
        let ring = FrameRing(capacityFrames: 18 * 960)
        let timing = OutputTiming()
        let cues = CuePlayer(sounds: [Self.short])
        let pump = AudioPump(
            ring: ring, timing: timing, gain: MasterGain(), clock: clock, sleeper: ManualSleeper(clock: clock),
            driver: device, nominalPeriodFrames: 960, cues: cues
        ) { () throws(OutputError) in throw .closed }
        let feeder = RingFeeder(ring: ring, timing: timing, periodFrames: 960, targetFrames: 16 * 960)
        func play(until seconds: Double) {
            while clock.now().seconds < seconds {
                feeder.feed(now: clock.now()) { buffer, _ in buffer.update(repeating: 0.125) }
                pump.step()
            }
        }
        play(until: 1)
        #expect(ring.fillFrames >= 14 * 960, "the ring is 280-320 ms ahead")
        // Touched 7 ms before the playout asked for the sound (its wake-up).
        let asked = clock.now(), touched = asked.nanoseconds - 7_000_000
        cues.play(0, touchedAt: touched)
        play(until: 2)
        let cue = heard.first { $0.first > 0.3 }
        #expect(cue != nil)
        let lateMs = cue.map { $0.at.milliseconds(since: asked) } ?? .max
        #expect(lateMs >= 0 && lateMs <= 80, "heard \(lateMs) ms after it was asked for")
        // The audio thread measures the touch-to-sound time itself: issue 44's knob_to_click_ms.
        let measured = cues.touchToSound
        #expect(measured.count == 1)
        #expect(
            cue.map { Int64(measured.microseconds) * 1_000 == $0.at.nanoseconds - touched } == true,
            "measured \(measured.microseconds) µs; heard \(lateMs + 7) ms after the touch")
    }

    /// The output keeps the latest measurements for `stats`; a sound without a touch (or
    /// played into nothing while the device is down) is not one.
    @Test func theOutputKeepsTheTouchToSoundTimesOfItsSounds() {
        let clock = ManualClock()
        let cues = CuePlayer(sounds: [Self.short])
        let output = OutputPath(
            device: .null, request: OutputDevice.Request(), mixerControl: nil, clock: clock,
            sleeper: ManualSleeper(clock: clock), cues: cues
        ) { () throws(OutputError) in WatchedOutput(name: "w", clock: clock) }
        func run(periods: Int) {
            for _ in 0..<periods {
                output.feed(now: clock.now()) { buffer, _ in buffer.update(repeating: 0) }
                output.pump.step()
                _ = output.report()
            }
        }
        run(periods: 20)
        cues.play(0)
        run(periods: 5)
        #expect(output.statistics.touchToSound.count == 0, "no touch, no measurement")
        for delayMs: Int64 in [3, 11, 5] {
            cues.play(0, touchedAt: clock.now().nanoseconds - delayMs * 1_000_000)
            run(periods: 5)
        }
        let window = output.statistics.touchToSound
        #expect(window.count == 3)
        let summary = window.summary
        // Each is heard behind the device's queue (3 periods: 60 ms) and the wait for room to
        // write (up to a period) after it was asked for, plus the 3, 11, 5 ms before that.
        #expect(
            summary.map { $0.p50 >= 65 && $0.p50 <= 85 && $0.max - $0.p50 == 6 } == true,
            "\(String(describing: summary))")
    }
}
