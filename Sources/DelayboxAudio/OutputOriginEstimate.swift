import DelayboxEngine

/// When ring frame 0 is heard — the origin `OutputTiming` publishes — from the audio
/// thread's measurements after each write: the clock read just after the device's delay.
///
/// A measurement is never early, only late: the device counts its delay from a position
/// it updates at its own ticks (a DMA burst; snd-aloop's jiffy, up to 4 ms at 250 Hz),
/// and a thread held up between reading the delay and reading the clock reads the clock
/// late. So the estimate is the earliest measurement of the last `window`, not the
/// latest one: taken as they came, measurements wandered by up to a jiffy from one write
/// to the next and the drift corrector chased that noise, slipping a frame in most
/// chunks while the delay at the jack wandered by up to 1 ms (the virtual boards: ~30 slips a
/// second against a drift of tens of ppm). A real step later — the device restarted
/// after an underrun, silence written for an empty ring, another device — is taken
/// `restart`ed at once; any other is taken once it has lasted a window. A slow DAC's
/// origin moves later too, by its drift: the window costs a lag of the drift times the
/// window (100 ppm: 0.2 ms), a fast one's moves earlier and is taken at once.
///
/// Real time: fixed storage, no allocation after `init`.
struct OutputOriginEstimate {
    /// How far back measurements count.
    static let window = TimeAmount.seconds(2)
    /// Measurements held; at a write every 20 ms the window's 100 fit.
    static let capacity = 128

    private var origins: [Int64]
    private var times: [Int64]
    private var count = 0
    /// Where the next measurement goes in the circular storage.
    private var next = 0

    init() {
        origins = Array(repeating: 0, count: Self.capacity)
        times = Array(repeating: 0, count: Self.capacity)
    }

    /// Takes the origin measured at `now` (`restarted`: the device's timeline moved since
    /// the last, so earlier measurements no longer hold) and returns the estimate.
    mutating func measure(_ origin: Instant, at now: Instant, restarted: Bool) -> Instant {
        if restarted { count = 0 }
        origins[next] = origin.nanoseconds
        times[next] = now.nanoseconds
        next = (next + 1) % Self.capacity
        count = min(count + 1, Self.capacity)
        let since = now.nanoseconds - Self.window.nanoseconds
        var earliest = origin.nanoseconds
        for back in 1...count {
            let slot = (next - back + Self.capacity) % Self.capacity
            guard times[slot] >= since else { break }
            earliest = min(earliest, origins[slot])
        }
        return Instant(nanoseconds: earliest)
    }
}
