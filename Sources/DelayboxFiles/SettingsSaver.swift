import DelayboxConfig
import DelayboxEngine
import DelayboxLog
import DelayboxPlatform
import DelayboxState
import DelayboxUnits
import Synchronization

/// Saves the settings on a thread of its own (`delaybox-save`), so that the playout thread
/// never waits on the disk: two fsyncs on a slow SD card take longer than the output's ring
/// holds. The newest settings win (one waiting at most); a save that fails is said once and
/// tried again with back-off (`ReconnectBackoff` without jitter: 1 s, doubling to a minute)
/// until it works, which is said too.
/// Other files the box writes while it plays (the console's `config save`) are written on
/// the same thread, once each, their outcome handed back (`perform`). `finish()` writes
/// what waits before the box stops.
public final class SettingsSaver: Sendable {
    /// Writes one settings value (`SettingsFile.save`; a test's slow or failing disk).
    public typealias Write = @Sendable (Settings) throws -> Void

    private let write: Write
    private let pending = Mutex<Settings?>(nil)
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let worker = WorkerThread(name: "delaybox-save")
    private let logger = Logger(label: "delaybox.state")
    /// The waits after failures in a row (a copy per thread's run: counted there).
    private let retries: ReconnectBackoff

    /// - Parameter firstRetryMs: the first wait after a failure (doubling to 60 s).
    public init(write: @escaping Write, firstRetryMs: Int64 = 1_000) {
        self.write = write
        retries = ReconnectBackoff(initial: .milliseconds(firstRetryMs), cap: .seconds(60), jitter: 0)
        worker.start { [self] in run() }
    }

    public convenience init(file: SettingsFile) { self.init(write: { try file.save($0) }) }

    /// Asks for `settings` to be saved soon; returns at once.
    public func save(_ settings: Settings) {
        pending.withLock { $0 = settings }
        worker.wake()
    }

    /// Drops the settings waiting to be saved (a factory reset removes the file).
    public func discardPending() { pending.withLock { $0 = nil } }

    /// Runs `job` (a durable write, and what follows it) on this thread, soon; returns at once.
    public func perform(_ job: @escaping @Sendable () -> Void) {
        jobs.withLock { $0.append(job) }
        worker.wake()
    }

    /// Ends the thread, then writes what still waits here, on the caller's thread (the box
    /// is stopping: nothing plays any more).
    public func finish() {
        worker.stop()
        runJobs()
        if let settings = pending.withLock({ settings in
            defer { settings = nil }; return settings
        }) {
            attempt(settings, failures: 0)
        }
    }

    private func run() {
        var failures = 0
        var backoff = retries
        var random = SystemRandomNumberGenerator()
        while !worker.isStopRequested {
            runJobs()
            guard
                let settings = pending.withLock({ settings in
                    defer { settings = nil }; return settings
                })
            else {
                worker.wait(for: .hours(1))
                continue
            }
            if attempt(settings, failures: failures) {
                failures = 0
                backoff.reset()
                continue
            }
            failures += 1
            // Tried again unless newer settings came meanwhile (those are tried instead).
            pending.withLock { if $0 == nil { $0 = settings } }
            worker.wait(for: backoff.nextDelay(using: &random))
        }
    }

    private func runJobs() {
        for job in jobs.withLock({ jobs in
            defer { jobs.removeAll() }; return jobs
        }) { job() }
    }

    /// One write; says a first failure and a recovery. True when written.
    @discardableResult
    private func attempt(_ settings: Settings, failures: Int) -> Bool {
        do {
            try write(settings)
            if failures > 0 { logger.notice("settings saved again after \(failures) failed attempt(s)") }
            return true
        } catch {
            if failures == 0 {
                logger.error("cannot save settings: \(error); trying again, up to every minute, until it works")
            }
            return false
        }
    }
}
