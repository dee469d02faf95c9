import DelayboxUnits

/// When to ask a live HLS station's playlist again, so that a new segment is fetched within
/// tens of milliseconds of being listed (issue 67).
///
/// A station lists a segment when its audio is made, a segment's duration after the last
/// one by the station's clock; a player that reloads a target duration after its own last
/// reload (FFmpeg's demuxer, the HLS spec's minimum) sees it on its own clock instead, up
/// to a segment late, and the station's rate never shows in the arrivals (docs/
/// performance.md, "Stations as delivered"). So the box asks densely in a window around
/// the time the next segment is due (the newest one's appearance plus its duration), at
/// intervals drawn anew each time, and at the spec's pace (half the target duration)
/// outside it: about ten small requests a segment, where the spec asks one or two — the
/// price of a station's clock read to milliseconds.
public struct HLSPollSchedule: Sendable {
    /// When the newest segment was first seen listed; nil until one appeared while watched.
    public private(set) var appeared: Instant?
    /// How much earlier it may have been listed: the time since the poll before.
    private var uncertainty = TimeAmount.zero
    /// The last poll's time.
    private var lastPoll: Instant?
    /// The newest segment's duration: the next is due that long after it appeared.
    private var newestDuration: TimeAmount
    /// The playlist's target duration.
    private let target: TimeAmount

    /// How long before a segment is due the dense polls begin (besides the last
    /// appearance's own uncertainty): the station's rate and the poll's lateness move the
    /// due time by less.
    static let early = TimeAmount.milliseconds(150)
    /// The dense polls' interval from `close` before the due time on, drawn between these:
    /// the appearance is seen 5 ms late on average, within 15 ms — each segment's arrival
    /// is one point of the station's clock, and their scatter is what hides its rate (polls
    /// 30-70 ms apart left a station 200 ppm fast unseen for 3 minutes of 6 s segments,
    /// and the heard delay 25 ms off meanwhile; 5-15 ms apart, 3 ms, in `delaybox simulate`).
    static let shortestInterval = TimeAmount.milliseconds(5)
    static let intervalSpread = TimeAmount.milliseconds(10)
    /// Before that, from `early` on, polls 20-40 ms apart: a segment is rarely listed so
    /// early, and half the requests are saved.
    static let close = TimeAmount.milliseconds(40)
    static let earlyInterval = TimeAmount.milliseconds(20)
    static let earlySpread = TimeAmount.milliseconds(20)
    /// How long past due the dense polls go on before the spec's pace is resumed (a
    /// station that paused, an encoder restarting).
    static let lateness = TimeAmount.milliseconds(1_500)
    /// Until a segment has been seen appearing, the polls' interval: a tenth of the target,
    /// within these.
    static let searchingIntervals = TimeAmount.milliseconds(100)...TimeAmount.milliseconds(500)

    public init(targetDuration: TimeAmount, newestDuration: TimeAmount) {
        target = targetDuration
        self.newestDuration = newestDuration
    }

    /// Notes a poll at `now`, and the new newest segment it found (its duration), if any.
    public mutating func polled(at now: Instant, newSegmentLasting duration: TimeAmount?) {
        defer { lastPoll = now }
        guard let duration else { return }
        appeared = now
        newestDuration = duration
        // Seen at the first poll of a window (or while searching): listed any time since
        // the poll before, so the next window opens that much earlier.
        uncertainty = min(lastPoll.map { now - $0 } ?? target, target.scaled(by: 0.5))
    }

    /// When to poll next, after a poll (or the start) at `now`. `draw`: a random fraction in
    /// 0..<1 for this interval.
    public func nextPoll(after now: Instant, draw: Double) -> Instant {
        let fraction = min(max(draw, 0), 1)
        guard let appeared else {
            let interval = min(
                max(target.scaled(by: 0.1), Self.searchingIntervals.lowerBound), Self.searchingIntervals.upperBound)
            return now + interval.scaled(by: 0.75 + fraction / 2)
        }
        let due = appeared + newestDuration
        let opens = due - Self.early - uncertainty
        if now < opens { return opens + Self.intervalSpread.scaled(by: fraction) }
        if now < due - Self.close { return now + Self.earlyInterval + Self.earlySpread.scaled(by: fraction) }
        if now < due + Self.lateness { return now + Self.shortestInterval + Self.intervalSpread.scaled(by: fraction) }
        return now + target.scaled(by: 0.5)
    }
}

extension TimeAmount {
    /// This amount times `factor` (finite, small), to the nanosecond.
    func scaled(by factor: Double) -> TimeAmount {
        TimeAmount(nanoseconds: Int64((Double(nanoseconds) * factor).rounded()))
    }
}
