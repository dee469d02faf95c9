import DelayboxAudio
import DelayboxEngine
import DelayboxSimulation

/// Sleeps in virtual time: moves a `ManualClock` forward to the instant asked for, so
/// paced outputs and the audio thread's back-off run in no time and identically each run.
public struct ManualSleeper: Sleeper {
    public let clock: ManualClock

    public init(clock: ManualClock) { self.clock = clock }

    public func sleep(until instant: Instant) { clock.set(instant) }
}
