import DelayboxEngine
import DelayboxLog
import DelayboxOutput
import DelayboxPlatform
import DelayboxUnits

/// What systemd hears from the box (docs/daemon.md): READY once the first period is
/// rendered, STATUS= once a second, and the watchdog fed only while audio reaches the
/// output — a device that is down (a WAV file that cannot be written, a codec that
/// vanished) leaves it unfed, so systemd restarts the service if that lasts. Also the
/// start-up figure: when the first audio reached the output.
public struct ServiceHealth {
    public private(set) var healthy = true
    /// The output's losses at the last look.
    private var deviceLosses = 0
    /// Since when the output has been up without a loss; nil while it is down.
    private var upSince: Instant?
    /// How long a failed output must work again before it counts as healthy.
    public static let recovery = TimeAmount.seconds(5)
    private var isFirstPeriod = true
    /// Whether the programme's first audio has been logged.
    private var heardFirstAudio = false
    private var lastStatus: Instant
    private var lastPing: Instant
    private let systemd: SystemdNotifier
    private let logger = Logger(label: "delaybox.appliance")

    public init(systemd: SystemdNotifier, start: Instant) {
        self.systemd = systemd
        lastStatus = start
        lastPing = start
    }

    /// After each period: READY after the first, STATUS= and the output's health once a
    /// second, the watchdog at its interval while healthy.
    public mutating func periodRendered(output: OutputPath, engine: PlaybackEngine, at now: Instant) {
        if isFirstPeriod {
            isFirstPeriod = false
            systemd.notify("READY=1\nSTATUS=\(engine.state.rawValue)")
        }
        if now - lastStatus >= .seconds(1) { look(at: output, engine: engine, now: now) }
        if healthy, let interval = systemd.watchdogIntervalNanoseconds,
            now.nanoseconds - lastPing.nanoseconds >= interval
        {
            systemd.notify("WATCHDOG=1")
            lastPing = now
        }
    }

    public func notify(_ state: String) { systemd.notify(state) }

    /// The programme starts playing, its first frame heard `frames` from now. The first
    /// time, logs when that is, counted from the process's start: the start-up figure an
    /// installer compares (docs/performance.md).
    public mutating func programmeStarted(inFrames frames: Int) {
        guard !heardFirstAudio else { return }
        heardFirstAudio = true
        guard let age = ProcessFigures.ageSeconds() else { return }
        let seconds = age + Double(frames) / Double(AudioFormat.sampleRate)
        logger.notice("first audio at the output \(String(printf: "%.3f", seconds)) s after start")
    }

    private mutating func look(at output: OutputPath, engine: PlaybackEngine, now: Instant) {
        lastStatus = now
        // Up now and not lost since the last look: a device that reopens and fails again
        // at once is not working. After a failure it counts as working again once it has
        // stayed up for `recovery`.
        let losses = output.deviceLosses
        let up = output.isDeviceUp && losses == deviceLosses
        deviceLosses = losses
        upSince = up ? upSince ?? now : nil
        let working = up && (healthy || now - (upSince ?? now) >= Self.recovery)
        if working, !healthy { logger.notice("output works again") }
        if !working, healthy { logger.error("output \(output.device) is down; the watchdog is no longer fed") }
        healthy = working
        let status = engine.status(at: now)
        systemd.notify(
            "STATUS=\(status.state.rawValue), delay \(status.delay.milliseconds) ms, available \(status.availableDelay.milliseconds) ms"
        )
    }
}
