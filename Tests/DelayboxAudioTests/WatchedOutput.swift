import DelayboxAudio
import DelayboxEngine
import DelayboxOutput
import DelayboxSimulation
import DelayboxTestSupport

/// A null device in virtual time (960-frame periods, four of them) whose writes a test
/// fails or watches.
final class WatchedOutput: OutputDriver {
    let inner: NullOutput
    let name: String
    /// Before each write; what it throws fails the write (an unplugged card).
    var beforeWrite: () throws(OutputError) -> Void = {}
    /// After each write, with the period written and the instant its first frame is heard.
    var afterWrite: (_ period: UnsafePointer<Float>, _ heardAt: Instant) -> Void = { _, _ in }
    /// The device's position moves only at ticks this far apart (snd-aloop's jiffy: 4 ms
    /// at 250 Hz), so its delay reads up to a tick's frames high; zero: exact.
    var positionTick = TimeAmount.zero
    private let clock: ManualClock

    init(name: String, clock: ManualClock) {
        self.name = name
        self.clock = clock
        inner = NullOutput(periodFrames: 960, periods: 4, clock: clock, sleeper: ManualSleeper(clock: clock))
    }

    var format: OutputFormat { inner.format }
    var periodFrames: Int { inner.periodFrames }
    var bufferFrames: Int { inner.bufferFrames }
    var underruns: Int { inner.underruns }
    func write(_ frames: UnsafePointer<Float>) throws(OutputError) {
        try beforeWrite()
        try inner.write(frames)
        afterWrite(frames, clock.now().advanced(byFrames: Int64(inner.delayFrames() - periodFrames)))
    }
    func delayFrames() -> Int {
        let exact = inner.delayFrames()
        guard positionTick > .zero, exact > 0 else { return exact }
        let sinceTick = Instant(nanoseconds: clock.now().nanoseconds % positionTick.nanoseconds)
        return exact + Int(sinceTick.frames(since: .zero))
    }
    /// Measured like a sound card's unless `paced`.
    var firstFrameAudible: Instant? { paced ? inner.firstFrameAudible : nil }
    /// Whether it says when its first frame was audible, as a paced device does.
    var paced = false
    func close() { inner.close() }
}
