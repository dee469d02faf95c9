import DelayboxEngine
import DelayboxUnits

/// A box of a venue group playing as one with the others in the room (issues 58, 70): at
/// each look it compares the figures the others sent for runs of the stream it holds with
/// its own line and moves to the room's (`VenueAlignment`), and every few seconds says its
/// own figure — when it took a run to have been live, in Unix time. Wall-clock times, so
/// only while the clock is the room's to a millisecond (`VenueClock`): a box off by more
/// neither moves the others nor itself, and says why. Pure: the playout hands in the
/// figures, the clock's word and the wall clock, and carries out what it is told.
public struct RoomSync: Sendable {
    /// How often a box of a group says its figure.
    static let figureInterval = TimeAmount.seconds(5)
    /// How soon a figure is tried again when the newest audio held no mark yet (at the
    /// start, after a gap): soon, so that a room compares its lines from its first seconds
    /// (waiting a whole interval held a joining box ~14 ms off for 10 s: stop 63's run),
    /// but not on every wake.
    static let markRetry = TimeAmount.milliseconds(500)

    private var alignment = VenueAlignment()
    private var nextFigure = Instant.zero
    /// How long this box has taken part in the room: settled after a minute.
    private var tenure = RoomTenure()
    /// Whether the wall clock was the room's when last looked at; nil: not yet.
    private var clockTrusted: Bool?

    public init() {}

    /// What a look came to: what to log, and the figure to send the group.
    public struct Outcome: Sendable {
        /// The room's alignment waits, and why (the clock is not the room's).
        public var waits: String?
        /// The room's alignment begins: the clock as chrony said it.
        public var begins: String?
        /// This box moved to the room's line: by how much and in all (ms, positive: earlier).
        public var moved: (byMs: Double, inAllMs: Double)?
        public var figure: VenueFigure?

        /// Nothing to log or send.
        public var isEmpty: Bool { waits == nil && begins == nil && moved == nil && figure == nil }
    }

    /// Moved so far (frames; positive: earlier).
    public var shiftFrames: Int64 { alignment.shiftFrames }

    /// The room's figures forgotten: they were of another channel's line.
    public mutating func forgetFigures() { alignment = VenueAlignment() }

    /// One look at the room at `now`: `member` is this box's name in its group (nil: in none;
    /// then neither `clock` nor `unixNow` is asked), `figures` the others' since the last
    /// look, `unixNow` the wall clock at `now` (s; nil: not believed yet).
    public mutating func look(
        member: String?, figures: [VenueFigure], clock: () -> VenueClock, unixNow: () -> Double?,
        engine: PlaybackEngine, now: Instant
    ) -> Outcome {
        var outcome = Outcome()
        guard let member else {
            _ = tenure.look(member: false, trusted: false, now: now)
            return outcome
        }
        let clock = clock()
        let settled = tenure.look(member: true, trusted: clock.trusted, now: now)
        guard !figures.isEmpty || now >= nextFigure, let unixNow = unixNow() else { return outcome }
        if clock.trusted != clockTrusted {
            clockTrusted = clock.trusted
            if let whyNot = clock.whyNot { outcome.waits = whyNot } else { outcome.begins = clock.summary }
        }
        guard let settled else { return outcome }
        /// A time on the playout's clock as Unix time (ns).
        func unix(_ instant: Instant) -> Int64 { Int64((unixNow * 1e9).rounded()) - (now - instant).nanoseconds }
        for figure in figures {
            // A stranger's number: checked before any arithmetic (beyond a second it is not the
            // room's line anyway).
            guard let fingerprint = figure.fingerprintValue, let mine = engine.liveTime(ofVenueMark: fingerprint)
            else { continue }
            let (laterNs, overflow) = unix(mine).subtractingReportingOverflow(figure.liveUnixNs)
            guard !overflow, (-999_999_999...999_999_999).contains(laterNs) else { continue }
            alignment.heard(
                from: figure.box, laterFrames: laterNs * Int64(AudioFormat.sampleRate) / 1_000_000_000,
                settled: figure.settled ?? true, at: now)
        }
        let move = alignment.move(now: now, settled: settled)
        if move != 0 {
            engine.moveLive(byFrames: move)
            outcome.moved = (
                AudioFormat.exactMilliseconds(frames: move),
                AudioFormat.exactMilliseconds(frames: alignment.shiftFrames)
            )
        }
        // The next figure is due in an interval once this one is made, and soon when the
        // newest audio held no mark: searched for twice a second, not on every wake.
        guard now >= nextFigure else { return outcome }
        guard let mark = engine.venueMark() else {
            nextFigure = now + Self.markRetry
            return outcome
        }
        nextFigure = now + Self.figureInterval
        outcome.figure = VenueFigure(
            box: member, fingerprint: mark.fingerprint, liveUnixNs: unix(mark.liveAt), settled: settled)
        return outcome
    }
}
