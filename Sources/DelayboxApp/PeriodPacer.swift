import DelayboxEngine
import Foundation

/// Paces rendering at real time: hands out the due time of each period of
/// `periodFrames` frames, sleeping until it has come, for as long as `seconds` allows.
struct PeriodPacer {
    let clock: SystemClock
    let start: Instant
    let periodFrames: Int
    /// Stop after this much output (s); 0: never.
    let seconds: Double
    /// Frames handed out so far.
    private(set) var rendered: Int64 = 0

    init(clock: SystemClock, periodFrames: Int, seconds: Double) {
        self.clock = clock
        start = clock.now()
        self.periodFrames = periodFrames
        self.seconds = seconds
    }

    /// Waits for the next period; returns when it is due, or nil when time is up.
    mutating func nextPeriod() -> Instant? {
        guard seconds <= 0 || Double(rendered) / Double(AudioFormat.sampleRate) < seconds else { return nil }
        let due = start.advanced(byFrames: rendered)
        let wait = due.nanoseconds - clock.now().nanoseconds
        if wait > 0 { Thread.sleep(forTimeInterval: Double(wait) / 1e9) }
        rendered += Int64(periodFrames)
        return due
    }
}
