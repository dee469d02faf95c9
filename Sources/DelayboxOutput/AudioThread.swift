import DelayboxAudio
import DelayboxPlatform
import Dispatch
import Glibc
import Synchronization

/// The real-time audio thread: runs an `AudioPump` step after step until stopped, at
/// SCHED_FIFO priority when permitted (at normal priority otherwise, shown by `stats`).
final class AudioThread: Sendable {
    let pump: AudioPump
    private let running = Atomic<Bool>(true)
    private let done = DispatchSemaphore(value: 0)
    /// The SCHED_FIFO priority the thread got, 0 for normal (set once it runs).
    let priority = Atomic<Int32>(0)

    init(pump: AudioPump) { self.pump = pump }

    /// - Parameter realtimePriority: SCHED_FIFO priority (1-99).
    func start(realtimePriority: Int32) {
        PlatformThread.start(name: "delaybox-audio", stackBytes: 512 * 1024) { [self] in
            if RealTimePriority.raiseCallingThread(to: realtimePriority) {
                priority.store(realtimePriority, ordering: .relaxed)
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
