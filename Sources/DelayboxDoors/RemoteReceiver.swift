import DelayboxCommands
import DelayboxConfig
import DelayboxControls
import DelayboxInput
import DelayboxLog
import DelayboxPlatform
import DelayboxSystem
import DelayboxUnits
import Synchronization

/// The remote control's own thread: waits on its input device (`InputDevice`), turns its
/// keys into commands (`RemoteKeys`) and leaves them in an inbox that the playout thread
/// drains with the panel's. A device that is not there yet (the IR driver loads after the
/// box starts, a USB receiver is plugged in later) or goes away is looked for again every
/// `retry`; the box plays on without it.
public final class RemoteReceiver: Sendable {
    /// How often a missing device is looked for again (ms).
    static let retry = TimeAmount.seconds(5)

    private let remote: RemoteSettings
    private let delayStep: TimeAmount
    /// Tap-to-sync's first tap, shared with the front panel.
    private let taps: TapPairing
    private let inbox: CommandInbox
    private let worker = WorkerThread(name: "delaybox-remote")
    private let wake: Wakeup
    private let seen: Mutex<RemoteView>
    private let logger = Logger(label: "delaybox.controls")

    /// - Parameter ring: wakes the playout thread when a command is posted.
    init(remote: RemoteSettings, delayStep: TimeAmount, taps: TapPairing, ring: @escaping @Sendable () -> Void)
        throws(InputError)
    {
        self.taps = taps
        self.remote = remote
        self.delayStep = delayStep
        inbox = CommandInbox(ring: ring)
        do { wake = try Wakeup() } catch { throw InputError.noWakeup(error) }
        seen = Mutex(RemoteView(device: remote.device))
    }

    /// What the remote's thread has open and the keys it saw (`remote`).
    public func view() -> RemoteView { seen.withLock { $0 } }

    func start() {
        worker.start { [self] in loop() }
    }

    func stop() { worker.stop { wake.wake() } }

    /// The commands the remote produced since the last call.
    func drain() -> [TimedCommand] { inbox.drain() }

    private func loop() {
        var lastProblem: String?
        while !worker.isStopRequested {
            let device: InputDevice
            do {
                device = try InputDevice(remote.device)
            } catch {
                // Said once, not every retry: an installer reads the first, and the journal stays quiet.
                if error.description != lastProblem {
                    logger.warning(
                        "remote: \(error); looking again every \(Self.retry.wholeSeconds) s (the panel and console still work)"
                    )
                }
                lastProblem = closed(error)
                worker.wait(for: Self.retry)
                continue
            }
            lastProblem = nil
            seen.withLock {
                $0.open = (device.name, device.path); $0.problem = nil
            }
            logger.info("remote: '\(device.name)' (\(device.path)), \(remote.keys.count) keys")
            var keys = RemoteKeys(remote: remote, delayStep: delayStep, taps: taps)
            do {
                try listen(device, keys: &keys)
            } catch {
                logger.warning("remote: \(error); looking for it again in \(Self.retry.wholeSeconds) s")
                lastProblem = closed(error)
                // Not at once: a device that fails as soon as it is read would spin this thread.
                worker.wait(for: Self.retry)
            }
        }
    }

    /// No device is open, because of `error` (for `remote`); returns what it says.
    private func closed(_ error: InputError) -> String {
        seen.withLock {
            $0.open = nil; $0.problem = error.description
        }
        return error.description
    }

    /// Turns the device's keys into commands until a stop, or the device fails.
    private func listen(_ device: InputDevice, keys: inout RemoteKeys) throws(InputError) {
        while !worker.isStopRequested {
            let now = SystemClock.monotonicNow()
            let wait = keys.nextDeadline.map { Poll.Wait.atMost($0 - now) } ?? .forever
            let events = try device.waitForKeys(wait, waking: wake)
            for event in events { inbox.post(keys.handle(event)) }
            let presses = events.filter { $0.change == .press }
            if !presses.isEmpty {
                seen.withLock { view in
                    for press in presses { view.pressed(press.code, at: press.time, remote: remote) }
                }
            }
            inbox.post(keys.advance(to: SystemClock.monotonicNow()))
        }
    }
}
