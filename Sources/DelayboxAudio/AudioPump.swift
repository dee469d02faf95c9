import DelayboxEngine
import Synchronization

/// The audio thread's work, one period per `step()`: take a period from the ring (or
/// silence when the playout thread is late, so the DAC stays fed and never pops),
/// apply the master gain with a ramp, write it to the driver, and publish when the ring's
/// frames will be heard.
///
/// Real time: a step allocates nothing, does no I/O but the device write, and takes no
/// lock — except on the slow path of a device failure, which is no longer real time.
/// A lost device is closed and reopened with back-off (0.5 s doubling to 5 s); meanwhile
/// the pump consumes the ring at the clock's pace, so the engine keeps playing (into
/// nothing), keeps recording, and holds its delay for when the device comes back.
public final class AudioPump: @unchecked Sendable {
    // @unchecked: `step` and `finish` run on the audio thread only; other threads touch
    // only the atomic counters, `gain` (atomic) and `events` (a mutex).
    public typealias DriverFactory = @Sendable () throws(OutputError) -> any OutputDriver

    /// What happened to the device, for the playout thread to report.
    public enum Event: Sendable, Equatable {
        case opened(name: String, format: OutputFormat, periodFrames: Int, bufferFrames: Int)
        case lost(reason: String)
        case openFailed(reason: String, retryInMs: Int64)
        /// The first frame written since the device opened is (was) heard then: the
        /// device's own timeline, against which its output can be checked.
        case firstFrameHeard(at: Instant)
    }

    public let ring: FrameRing
    public let timing: OutputTiming
    public let gain: MasterGain
    /// Sounds mixed over each period as it is written (the controls' feedback), if any.
    private let cues: CuePlayer?
    private let clock: any MonotonicClock
    private let sleeper: any Sleeper
    private let open: DriverFactory
    private var driver: (any OutputDriver)?
    /// Frames per step while the device is down (its nominal period).
    private let nominalPeriodFrames: Int
    private var buffer: UnsafeMutablePointer<Float>
    private var bufferFrames: Int
    private var ramp: GainRamp
    private var nextOpenAttempt = Instant.zero
    /// The waits between attempts to open the device: no jitter, a local card has no
    /// crowd of clients to spread out.
    private var backoff = ReconnectBackoff(initial: .milliseconds(500), cap: .seconds(5), jitter: 0)
    private var random = SystemRandomNumberGenerator()
    /// When the current device was opened.
    private var openedAt = Instant.zero
    /// How long a device must work before a loss counts as new rather than a relapse (ns).
    private static let stableNanoseconds: Int64 = 10_000_000_000
    /// While the device is down: when the next period is due.
    private var downPeriodDue: Instant?
    private let pendingEvents = Mutex<[Event]>([])

    /// Periods written as silence because the ring was empty (the playout thread was
    /// late) and the device about to run dry.
    public let ringUnderruns = Atomic<Int>(0)
    /// Underruns the driver recovered from.
    public let deviceUnderruns = Atomic<Int>(0)
    /// Times the device was lost.
    public let deviceLosses = Atomic<Int>(0)
    /// Whether a device is open.
    public let deviceUp = Atomic<Bool>(false)
    /// Whether the ring has had its first period: until then the device is not started,
    /// so that a file's output does not begin with silence.
    private var primed = false
    /// Whether `firstFrameHeard` was reported for the device open now.
    private var announcedFirstFrame = false
    /// When the ring's frames are heard, from the measurements after each write.
    private var origin = OutputOriginEstimate()
    /// Whether the device's timeline moved since the last measurement (another device,
    /// none, silence written, an underrun): earlier measurements no longer hold.
    private var timelineMoved = true
    /// Whether the device has played since its timeline last moved. Until it does — a
    /// device opened or recovered starts once most of its buffer is queued — its delay
    /// only grows while time passes, and each measurement holds only until the next.
    private var playing = false
    /// The device's delay after the last write (frames).
    private var queuedAfterLastWrite = 0
    /// The driver's underruns at the last measurement.
    private var underrunsMeasured = 0

    /// - Parameters:
    ///   - driver: an already open driver (the appliance opens the first one itself to
    ///     report problems at start), or nil to open one with the first step.
    ///   - open: opens the device again after a loss.
    ///   - nominalPeriodFrames: the pace while no device is open.
    ///   - cues: sounds to mix over the programme as it goes to the device.
    public init(
        ring: FrameRing, timing: OutputTiming, gain: MasterGain, clock: any MonotonicClock, sleeper: any Sleeper,
        driver: (any OutputDriver)?, nominalPeriodFrames: Int, cues: CuePlayer? = nil, open: @escaping DriverFactory
    ) {
        self.ring = ring
        self.timing = timing
        self.gain = gain
        self.cues = cues
        self.clock = clock
        self.sleeper = sleeper
        self.open = open
        self.nominalPeriodFrames = nominalPeriodFrames
        bufferFrames = max(nominalPeriodFrames, driver?.periodFrames ?? 0)
        buffer = .allocate(capacity: bufferFrames * AudioFormat.channelCount)
        ramp = GainRamp(gain: gain.gain, lengthFrames: AudioFormat.frames(milliseconds: 20))
        if let driver { adopt(driver) }
    }

    deinit {
        driver?.close()
        buffer.deallocate()
    }

    /// The owner's own first open failed (it opens the first device itself, to choose a
    /// fallback): reported like any failed attempt, and the next one waits the first
    /// back-off rather than repeating it at once.
    public func firstOpenFailed(_ error: OutputError) {
        guard driver == nil else { return }
        scheduleRetry(after: error.description, at: clock.now())
    }

    /// Takes what happened to the device since the last call.
    public func takeEvents() -> [Event] {
        pendingEvents.withLock { events in
            defer { events.removeAll() }; return events
        }
    }

    /// One wake-up: a burst of periods to the device, or, while it is down, one period
    /// paced on the clock.
    ///
    /// A device with a buffer of four periods or more is topped up when half of it has
    /// played, not after each period: half the wake-ups, and a thread wake-up is most of
    /// what playing costs on a small board, while the device never holds less than half
    /// its buffer.
    public func step() {
        guard let driver else { return stepWithoutDevice() }
        let frames = driver.periodFrames
        if primed, driver.bufferFrames >= 4 * frames {
            let half = driver.bufferFrames / frames / 2 * frames
            let room = driver.bufferFrames - driver.delayFrames()
            if room < half { sleeper.sleep(until: clock.now().advanced(byFrames: Int64(half - room))) }
            while writePeriod(driver), self.driver != nil, driver.bufferFrames - driver.delayFrames() >= frames,
                ring.fillFrames >= frames
            {}
        } else {
            _ = writePeriod(driver)
        }
    }

    /// Writes one period from the ring (or silence when the device is about to run dry);
    /// false when it waited for the ring instead.
    private func writePeriod(_ driver: any OutputDriver) -> Bool {
        let frames = driver.periodFrames
        if !ring.read(into: buffer, frames: frames) {
            // The playout thread is late. Before the first audio, and while the device
            // still holds more than a period, wait for it rather than put silence into the
            // programme; only silence keeps a running device from running dry.
            if !primed || driver.delayFrames() > frames {
                sleeper.sleep(until: clock.now().advanced(byFrames: Int64(frames / 4)))
                return false
            }
            buffer.update(repeating: 0, count: frames * AudioFormat.channelCount)
            ringUnderruns.add(1, ordering: .relaxed)
            timelineMoved = true
        }
        primed = true
        cues?.mix(into: buffer, frames: frames)
        ramp.fade(to: gain.gain)
        ramp.apply(to: buffer, frames: frames)
        do throws(OutputError) {
            try driver.write(buffer)
            // The delay, then the clock: a wait between them can then only make the
            // measurement late, which the estimate of the origin counts on.
            let queued = driver.delayFrames(), now = clock.now()
            // The period's first frame is heard once the device has played what it queued ahead.
            let heard = now.advanced(byFrames: Int64(queued - frames))
            cues?.heard(at: heard.nanoseconds)
            if !announcedFirstFrame {
                announcedFirstFrame = true
                // A paced device knows; measured, a stall between the write and the
                // reading (a WAV file's write blocked by a busy disk) would make it late.
                let first = driver.firstFrameAudible ?? heard
                pendingEvents.withLock { $0.append(.firstFrameHeard(at: first)) }
            }
            deviceUnderruns.store(driver.underruns, ordering: .relaxed)
            if driver.underruns != underrunsMeasured {
                underrunsMeasured = driver.underruns
                timelineMoved = true
            }
            if timelineMoved { (playing, queuedAfterLastWrite) = (false, 0) }
            // Measurements count together from the first one taken once the device has
            // played: the one before may be from before it started.
            let playedBefore = playing
            if queued < queuedAfterLastWrite + frames { playing = true }
            queuedAfterLastWrite = queued
            publishOrigin(nextFrameHeard: now.advanced(byFrames: Int64(queued)), at: now, restarted: !playedBefore)
        } catch {
            lose(driver, reason: error.description)
        }
        return true
    }

    /// Stops: what the ring still holds is written, the device plays it out and closes.
    public func finish() {
        if let driver {
            while ring.fillFrames >= driver.periodFrames, self.driver != nil { step() }
            self.driver?.close()
        }
        driver = nil
        deviceUp.store(false, ordering: .relaxed)
    }

    private func stepWithoutDevice() {
        let now = clock.now()
        if now >= nextOpenAttempt {
            do throws(OutputError) {
                adopt(try open())
                return
            } catch {
                scheduleRetry(after: error.description, at: now)
            }
        }
        let due = downPeriodDue ?? now
        sleeper.sleep(until: due)
        ring.discard(frames: nominalPeriodFrames)
        // The controls' sounds go on into nothing too: they are not saved up for the
        // device's return.
        cues?.mix(into: buffer, frames: nominalPeriodFrames)
        publishOrigin(nextFrameHeard: due, at: due, restarted: timelineMoved)
        downPeriodDue = due.advanced(byFrames: Int64(nominalPeriodFrames))
    }

    /// After a write (or a period paced while the device is down): the ring's next frame
    /// is heard at `nextFrameHeard`, as measured at `now`; `restarted`: earlier
    /// measurements no longer hold.
    private func publishOrigin(nextFrameHeard: Instant, at now: Instant, restarted: Bool) {
        let measured = nextFrameHeard.advanced(byFrames: -Int64(ring.totalRead))
        timing.publish(origin: origin.measure(measured, at: now, restarted: restarted))
        timelineMoved = false
    }

    private func scheduleRetry(after failure: String, at now: Instant) {
        let wait = backoff.nextDelay(using: &random)
        nextOpenAttempt = now + wait
        pendingEvents.withLock { $0.append(.openFailed(reason: failure, retryInMs: wait.milliseconds)) }
    }

    private func adopt(_ opened: any OutputDriver) {
        if opened.periodFrames > bufferFrames {
            buffer.deallocate()
            bufferFrames = opened.periodFrames
            buffer = .allocate(capacity: bufferFrames * AudioFormat.channelCount)
        }
        driver = opened
        announcedFirstFrame = false
        timelineMoved = true
        underrunsMeasured = opened.underruns
        openedAt = clock.now()
        downPeriodDue = nil
        deviceUp.store(true, ordering: .relaxed)
        pendingEvents.withLock {
            $0.append(
                .opened(
                    name: opened.name, format: opened.format, periodFrames: opened.periodFrames,
                    bufferFrames: opened.bufferFrames))
        }
    }

    private func lose(_ lost: any OutputDriver, reason: String) {
        lost.close()
        driver = nil
        timelineMoved = true
        deviceUp.store(false, ordering: .relaxed)
        deviceLosses.add(1, ordering: .relaxed)
        // A device that opens but fails again at once (a full disk, a card that errors on
        // every write) backs off like one that does not open; one that worked a while
        // starts again from the shortest wait.
        let now = clock.now()
        if now.nanoseconds - openedAt.nanoseconds >= Self.stableNanoseconds { backoff.reset() }
        nextOpenAttempt = now + backoff.nextDelay(using: &random)
        pendingEvents.withLock { $0.append(.lost(reason: reason)) }
    }
}
