import DelayboxApp
import DelayboxAudio
import DelayboxEngine
import DelayboxOutput
import DelayboxSimulation
import DelayboxTestSupport
import Synchronization
import Testing

/// The audio thread's loop in virtual time: a device lost mid-stream is reopened with
/// back-off while the ring keeps being consumed at the clock's pace.
@Suite(.timeLimit(.minutes(10))) struct AudioPumpTests {
    /// A null device that is unplugged after `writes` writes.
    static func unplugged(after writes: Int, clock: ManualClock) -> WatchedOutput {
        let device = WatchedOutput(name: "unplugged", clock: clock)
        var left = writes
        device.beforeWrite = { () throws(OutputError) in
            guard left > 0 else { throw .deviceLost(reason: "unplugged") }
            left -= 1
        }
        return device
    }

    @Test func aLostDeviceIsReopenedWithBackOffWhileTheRingKeepsPace() {
        let clock = ManualClock()
        let attempts = Mutex(0)
        let ring = FrameRing(capacityFrames: 4 * 960)
        let timing = OutputTiming()
        let pump = AudioPump(
            ring: ring, timing: timing, gain: MasterGain(), clock: clock, sleeper: ManualSleeper(clock: clock),
            driver: Self.unplugged(after: 50, clock: clock), nominalPeriodFrames: 960
        ) { () throws(OutputError) in
            let attempt = attempts.withLock {
                $0 += 1; return $0
            }
            if attempt <= 2 { throw OutputError.deviceLost(reason: "no such card") }
            return WatchedOutput(name: "plugged back", clock: clock)
        }
        let feeder = RingFeeder(ring: ring, timing: timing, periodFrames: 960, targetFrames: 2 * 960)
        let start = clock.now()
        var events: [(seconds: Double, event: AudioPump.Event)] = []
        var readWhenLost = 0, lostAt = start
        while clock.now().frames(since: start) < 8 * 48_000 {
            feeder.feed(now: clock.now()) { buffer, _ in buffer.update(repeating: 0.5) }
            pump.step()
            for event in pump.takeEvents() {
                events.append((clock.now().seconds - start.seconds, event))
                if case .lost = event { readWhenLost = ring.totalRead; lostAt = clock.now() }
                if case .opened = event, readWhenLost > 0 {
                    // While down, the ring was consumed at the clock's pace.
                    let consumed = Int64(ring.totalRead - readWhenLost), elapsed = clock.now().frames(since: lostAt)
                    #expect(abs(consumed - elapsed) <= 960, "consumed \(consumed) frames in \(elapsed) frames of time")
                }
            }
        }
        // Each open's first frame is reported once, right after the open.
        let firsts = events.indices.filter { if case .firstFrameHeard = events[$0].event { true } else { false } }
        #expect(
            firsts.count == 2
                && firsts.allSatisfy { index in
                    if index > 0, case .opened = events[index - 1].event { true } else { false }
                })
        let kinds = events.compactMap { event -> String? in
            switch event.event {
            case .opened: "opened"
            case .lost(let reason): "lost: \(reason)"
            case .openFailed(let reason, let retryInMs): "failed: \(reason), retry in \(retryInMs) ms"
            case .firstFrameHeard: nil
            }
        }
        // Lost after 50 periods (the first four fill the queue at once: ~0.9 s); tried
        // again 0.5 s later, then after 1 s and 2 s.
        #expect(
            kinds == [
                "opened", "lost: unplugged", "failed: no such card, retry in 1000 ms",
                "failed: no such card, retry in 2000 ms", "opened",
            ])
        let times = events.filter { if case .firstFrameHeard = $0.event { false } else { true } }.map(\.seconds)
        if times.count == 5 {
            #expect(abs(times[1] - 0.92) < 0.03 && abs(times[2] - times[1] - 0.5) < 0.03)
            #expect(abs(times[3] - times[2] - 1) < 0.03 && abs(times[4] - times[3] - 2) < 0.03)
        }
        #expect(pump.deviceLosses.load(ordering: .relaxed) == 1 && pump.deviceUp.load(ordering: .relaxed))
        #expect(pump.ringUnderruns.load(ordering: .relaxed) == 0)
    }

    /// A device whose position moves only at 4 ms ticks (snd-aloop's jiffy) reads its
    /// delay up to 192 frames high, depending on when in the tick it is asked; the thread
    /// wakes up to 1 ms late. What the pump publishes still puts each ring frame within a
    /// few frames of when it is heard — steady, so the drift corrector has nothing to chase.
    @Test func aDeviceCountingInTicksStillGivesWhenEachFrameIsHeardToAFewFrames() {
        let clock = ManualClock()
        let device = WatchedOutput(name: "ticking", clock: clock)
        device.positionTick = .milliseconds(4)
        var generator = SplitMix64(seed: 3)
        device.beforeWrite = { () throws(OutputError) in
            clock.advance(byNanoseconds: Int64(generator.next() % 1_000_000))
        }
        let start = clock.now()
        let (errors, underruns) = Self.publishedErrors(
            device: device, clock: clock, seconds: 20, deviceFrames: { device.inner.delayFrames() },
            counts: { $0.frames(since: start) > 3 * 48_000 })
        #expect(errors.count > 300 && underruns == 0)
        // (-1: instants in ns to frames, rounded down.)
        #expect(errors.min()! >= -1 && errors.max()! <= 8, "\(errors.min()!)…\(errors.max()!) frames late")
    }

    /// A device that starts playing 30 ms after three of its four periods are queued (its
    /// start threshold), as a USB or Bluetooth one may: what was measured before it played
    /// does not count once it has, so each ring frame is timed from when it really starts.
    @Test func aDeviceStartingLateIsTimedFromWhenItPlays() {
        let clock = ManualClock()
        let device = LateStartingOutput(latency: .milliseconds(30), clock: clock)
        let (errors, underruns) = Self.publishedErrors(
            device: device, clock: clock, seconds: 5, deviceFrames: { device.delayFrames() },
            counts: { now in device.startsAt.map { now > $0.advanced(byMilliseconds: 100) } ?? false })
        #expect(errors.count > 50 && underruns == 0)
        #expect(errors.min()! >= -1 && errors.max()! <= 1, "\(errors.min()!)…\(errors.max()!) frames late")
    }

    /// A paced device (a WAV file) whose first write is followed by a 550 ms stall (its
    /// write blocked by a busy disk) reads its queue empty once it resumes; the first frame
    /// is still announced when the device played it (measured from the queue, it was once
    /// announced 550 ms late, and an outside check of the heard delay failed by as much).
    @Test func aPacedDeviceAnnouncesItsFirstFrameWhenItPlayedThoughTheWriterStalled() throws {
        let clock = ManualClock()
        let device = WatchedOutput(name: "stalling", clock: clock)
        device.paced = true
        var stalled = false
        device.afterWrite = { _, _ in
            guard !stalled else { return }
            stalled = true
            clock.advance(byNanoseconds: 550_000_000)
        }
        let start = clock.now()
        var announced: [Instant] = []
        Self.pump(device, clock: clock, seconds: 1) { pump, _, _ in
            for case .firstFrameHeard(let at) in pump.takeEvents() { announced.append(at) }
        }
        let played = try #require(device.firstFrameAudible)
        #expect(announced == [played] && played < start.advanced(byMilliseconds: 1), "\(announced) vs \(played)")
    }

    /// Runs a pump on `device` alone (no other device to open), its ring fed a steady level,
    /// for `seconds` of `clock`; `afterStep` sees it after each step.
    @discardableResult
    static func pump(
        _ device: any OutputDriver, clock: ManualClock, seconds: Int64,
        afterStep: (AudioPump, FrameRing, OutputTiming) -> Void
    ) -> AudioPump {
        let ring = FrameRing(capacityFrames: 4 * 960)
        let timing = OutputTiming()
        let pump = AudioPump(
            ring: ring, timing: timing, gain: MasterGain(), clock: clock, sleeper: ManualSleeper(clock: clock),
            driver: device, nominalPeriodFrames: 960
        ) { () throws(OutputError) in throw .deviceLost(reason: "one device only") }
        let feeder = RingFeeder(ring: ring, timing: timing, periodFrames: 960, targetFrames: 2 * 960)
        let start = clock.now()
        while clock.now().frames(since: start) < seconds * 48_000 {
            feeder.feed(now: clock.now()) { buffer, _ in buffer.update(repeating: 0.5) }
            pump.step()
            afterStep(pump, ring, timing)
        }
        return pump
    }

    /// A pump on `device` alone for `seconds` of `clock`: at each step for which `counts`
    /// holds, what it published as the time until the ring's next frame is heard, minus the
    /// truth — after what the ring holds and what the device holds (`deviceFrames`). Also
    /// the ring's underruns.
    static func publishedErrors(
        device: any OutputDriver, clock: ManualClock, seconds: Int64, deviceFrames: () -> Int,
        counts: (Instant) -> Bool
    ) -> (errors: [Int64], underruns: Int) {
        var errors: [Int64] = []
        let pump = pump(device, clock: clock, seconds: seconds) { _, ring, timing in
            guard counts(clock.now()),
                let published = timing.delayFrames(untilRingFrame: ring.totalWritten, now: clock.now())
            else { return }
            errors.append(published - Int64(ring.fillFrames + deviceFrames()))
        }
        return (errors, pump.ringUnderruns.load(ordering: .relaxed))
    }
}
