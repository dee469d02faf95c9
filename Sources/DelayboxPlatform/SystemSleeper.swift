import DelayboxUnits
import Glibc

/// Sleeps on a `SystemClock` (the same instance whose `Instant`s it is given).
public struct SystemSleeper: Sleeper {
    public let clock: SystemClock

    public init(clock: SystemClock) { self.clock = clock }

    public func sleep(until instant: Instant) {
        PlatformThread.sleep(for: instant - clock.now())
    }
}
