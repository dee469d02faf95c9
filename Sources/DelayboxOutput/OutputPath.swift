import DelayboxAudio
import DelayboxEngine
import DelayboxLog
import DelayboxPlatform
import DelayboxUnits

/// Everything between the engine and the jack: the ring the playout thread fills, the
/// audio thread that empties it into the driver, and the volume (the codec's mixer
/// control when the board has one, software gain otherwise).
///
/// Threads: `feed`, `setVolume`, `report` and `stop` are for the playout thread; the
/// audio thread is internal.
public final class OutputPath {
    public let device: OutputDevice
    public let feeder: RingFeeder
    /// The audio thread's work; a test in virtual time steps it itself instead of `start`.
    public let pump: AudioPump
    private let thread: AudioThread
    private let mixer: (any HardwareVolume)?
    private let logger = Logger(label: "delaybox.output")
    private let clock: any MonotonicClock
    private var reportedRingUnderruns = 0
    private var reportedDeviceUnderruns = 0
    private let cues: CuePlayer?
    /// The controls' touch-to-sound times, taken from the audio thread at each report (one
    /// per playout wake): the latest only, so two sounds started between two wakes (a fast
    /// spin) count once — the figures are over the sounds seen, which a spin still fills.
    private var touchToSound = LatencyWindow()
    private var touchToSoundSeen: UInt32 = 0
    /// Frames rendered into the ring so far.
    public private(set) var renderedFrames: Int64 = 0
    /// Frames of programme to render before the owner stops (`--seconds`): feeding stops
    /// there so that a run's output is exactly that long, plus its fade-out.
    public var frameLimit = Int64.max

    /// Opens the device (a failure is reported like the audio thread's own retries, which
    /// go on with back-off while the engine keeps recording) and the mixer control, if any.
    /// - Parameters:
    ///   - ringMs: how far the ring runs ahead of the device: the audio thread's cushion
    ///     against a late playout thread.
    ///   - cues: sounds the audio thread mixes over the programme (the controls' feedback),
    ///     heard within the device's buffer rather than after the ring's `ringMs`.
    ///   - open: opens the device (by default as `device` says).
    public init(
        device: OutputDevice, request: OutputDevice.Request, mixerControl: String?, clock: any MonotonicClock,
        sleeper: any Sleeper,
        ringMs: Int64 = 120, cues: CuePlayer? = nil, open: AudioPump.DriverFactory? = nil
    ) {
        self.device = device
        self.clock = clock
        self.cues = cues
        let open = open ?? device.opener(request, clock: clock, sleeper: sleeper)
        var first: (any OutputDriver)?, failure: OutputError?
        do throws(OutputError) {
            first = try open()
        } catch {
            failure = error
        }
        let target = max(Int(AudioFormat.frames(milliseconds: ringMs)) / request.periodFrames, 2) * request.periodFrames
        let ring = FrameRing(capacityFrames: target + 2 * request.periodFrames)
        let timing = OutputTiming()
        feeder = RingFeeder(ring: ring, timing: timing, periodFrames: request.periodFrames, targetFrames: target)
        pump = AudioPump(
            ring: ring, timing: timing, gain: MasterGain(), clock: clock, sleeper: sleeper,
            driver: first, nominalPeriodFrames: request.periodFrames, cues: cues, open: open)
        if let failure { pump.firstOpenFailed(failure) }
        thread = AudioThread(pump: pump)
        mixer = Self.openMixer(device: device, control: mixerControl, logger: logger)
    }

    private static func openMixer(device: OutputDevice, control: String?, logger: Logger) -> (any HardwareVolume)? {
        guard let control else { return nil }
        do throws(OutputError) {
            guard let mixer = try device.kind.mixer(control: control) else { return nil }
            logger.info(
                "volume on the codec's mixer: \(mixer.controlName), \(mixer.decibelRange.lowerBound)…\(mixer.decibelRange.upperBound) dB"
            )
            return mixer
        } catch {
            logger.warning("mixer control '\(control)': \(error); using software volume")
            return nil
        }
    }

    /// How often the playout thread needs to render (ns): when the ring is down to the two
    /// periods the audio thread takes at a time. Waking once per several periods rather
    /// than once per period is most of what the appliance saves while it only holds the
    /// delay (docs/performance.md).
    public var playoutIntervalNanoseconds: Int64 {
        Int64(max(feeder.targetFrames - 2 * feeder.periodFrames, feeder.periodFrames)) * 1_000_000_000
            / Int64(AudioFormat.sampleRate)
    }

    /// Whether a device is open and taking audio (the watchdog's health).
    public var isDeviceUp: Bool { pump.deviceUp.load(ordering: .relaxed) }

    /// Times the device was lost since the start.
    public var deviceLosses: Int { pump.deviceLosses.load(ordering: .relaxed) }

    /// What went wrong at the output since the start, for the console's `stats`.
    public var statistics: OutputStatistics {
        OutputStatistics(
            xruns: pump.deviceUnderruns.load(ordering: .relaxed),
            lateRenders: pump.ringUnderruns.load(ordering: .relaxed),
            deviceLosses: deviceLosses, touchToSound: touchToSound, audioThreadPriority: audioThreadPriority)
    }

    /// The audio thread's SCHED_FIFO priority, where permitted: above the playout thread's,
    /// which fills the ring it empties. A paced output (a WAV file, null) gets it as well: it
    /// runs dry when its writer is late, as a card does (`PacedPlayout`), so the simulated
    /// board's jack is written at the board's priority.
    public static let audioPriority: Int32 = 50

    public func start() { thread.start(realtimePriority: Self.audioPriority) }

    /// The audio thread's SCHED_FIFO priority, 0 while at normal priority (`stats`).
    public var audioThreadPriority: Int32 { thread.priority.load(ordering: .relaxed) }

    /// Renders periods until the ring holds its target (at least `minimumPeriods`, which
    /// may go past `frameLimit`: a fade-out); `render` gets the buffer and how many frames
    /// after `now` its first frame is heard.
    public func feed(now: Instant, minimumPeriods: Int = 0, render: (UnsafeMutableBufferPointer<Float>, Int) -> Void) {
        let period = Int64(feeder.periodFrames)
        let remaining = frameLimit == .max ? Int.max : Int(max(0, (frameLimit - renderedFrames + period - 1) / period))
        let periods = feeder.feed(now: now, minimumPeriods: minimumPeriods, maximumPeriods: remaining, render: render)
        renderedFrames += Int64(periods * feeder.periodFrames)
    }

    /// Sets the listener's volume (0-100) and mute: the mixer control in dB when there is
    /// one (its switch mutes, if it has one), software gain otherwise.
    public func setVolume(_ volume: Int, muted: Bool) {
        guard let mixer else {
            pump.gain.gain = muted ? 0 : VolumeCurve.gain(volume)
            return
        }
        do throws(OutputError) {
            let silent = muted || volume == 0
            let switched = try mixer.setMuted(silent)
            _ = try mixer.setVolume(
                decibels: volume == 0 ? mixer.decibelRange.lowerBound : VolumeCurve.decibels(volume))
            pump.gain.gain = silent && !switched ? 0 : 1
        } catch {
            logger.error("mixer \(mixer.controlName): \(error); using software volume")
            pump.gain.gain = muted ? 0 : VolumeCurve.gain(volume)
        }
    }

    /// What happened at the device since the last call, as lines for the log.
    public func report() -> [String] {
        if let measured = cues?.touchToSound, measured.count != touchToSoundSeen {
            touchToSoundSeen = measured.count
            touchToSound.record(microseconds: measured.microseconds)
        }
        var lines: [String] = []
        for event in pump.takeEvents() {
            switch event {
            case .opened(let name, let format, let period, let buffer):
                lines.append("audio output \(name): \(format), period \(period) frames, buffer \(buffer) frames")
            case .lost(let reason):
                lines.append("audio output lost: \(reason); reopening while the stream is recorded")
            case .openFailed(let reason, let retry):
                lines.append("audio output cannot open: \(reason); next try in \(retry) ms")
            case .firstFrameHeard(let at):
                // On CLOCK_MONOTONIC, so an outside observer can check the output's timing.
                let seconds =
                    Double(SystemClock.monotonicNanoseconds() + at.nanoseconds - clock.now().nanoseconds) / 1e9
                lines.append("audio output: its first frame heard at monotonic \(String(printf: "%.6f", seconds)) s")
            }
        }
        let ring = pump.ringUnderruns.load(ordering: .relaxed), device = pump.deviceUnderruns.load(ordering: .relaxed)
        if ring > reportedRingUnderruns {
            lines.append("audio thread ran out of rendered audio \(ring - reportedRingUnderruns) time(s)")
        }
        if device > reportedDeviceUnderruns {
            lines.append("audio device underrun \(device - reportedDeviceUnderruns) time(s), recovered")
        }
        reportedRingUnderruns = ring
        reportedDeviceUnderruns = device
        return lines
    }

    /// Lets the device play out the ring, closes it and ends the audio thread.
    public func stop() { thread.stop() }
}
