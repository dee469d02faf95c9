import DelayboxAudio
import DelayboxPlatform
import Dispatch
import Glibc
import Synchronization

/// The real-time audio thread: runs an `AudioPump` step after step until stopped, at
/// SCHED_FIFO priority when asked and permitted (quietly at normal priority otherwise).
final class AudioThread: Sendable {
    let pump: AudioPump
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)
    /// Whether the thread got real-time priority (set once it runs).
    let realtime = Atomic<Bool>(false)

    init(pump: AudioPump) { self.pump = pump }

    /// - Parameter realtimePriority: SCHED_FIFO priority (1-99), or nil for normal.
    ///   Paced outputs (files, null) sleep rather than block on a device and need none.
    func start(realtimePriority: Int32?) {
        PlatformThread.start(name: "delaybox-audio", stackBytes: 512 * 1024) { [self] in
            if let realtimePriority {
                var parameters = sched_param()
                parameters.sched_priority = realtimePriority
                realtime.store(pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters) == 0, ordering: .relaxed)
            }
            while running.load(ordering: .relaxed) { pump.step() }
            pump.finish()
            done.signal()
        }
    }

    /// Lets the device play out what the ring holds, closes it and waits for the thread.
    func stop() {
        running.store(false, ordering: .relaxed)
        done.wait()
    }
}
