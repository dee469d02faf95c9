/// Where live was on a connection's own timestamps at a moment, and the rate it ran at:
/// what the delay journal keeps so that a restart which rebuilds the placement from the
/// middle of a connection (its start no longer journalled) plays at the delay it had, not
/// at the one a placement of its replayed arrivals gives (3.4 ms off after a 150 s
/// connection, issue 67).
public struct LiveMark: Equatable, Sendable {
    /// When (this process's clock).
    public var at: Instant
    /// The connection timestamp live then (frames).
    public var connectionFrame: Int64
    /// Stream frames per local frame: the station's clock as followed.
    public var rate: Double

    public init(at: Instant, connectionFrame: Int64, rate: Double) {
        (self.at, self.connectionFrame, self.rate) = (at, connectionFrame, rate)
    }
}

extension PlaybackEngine {
    /// Where live is at `now` on the connection being played, once its placement is fixed;
    /// nil before.
    public func liveMark(at now: Instant) -> LiveMark? {
        guard case .fixed = placement.phase, let base = placement.base, origin != nil else { return nil }
        return LiveMark(at: now, connectionFrame: livePosition(at: now) - base, rate: liveLine.rate)
    }

    /// Holds live where `mark` puts it on the connection being played (placed for good),
    /// and follows the station from there: live is anchored at the mark, so the next fits
    /// of the arrivals move it only by how their rate differs from then on.
    public func hold(_ mark: LiveMark) {
        guard case .fixed = placement.phase, let base = placement.base, let origin,
            (0.999...1.001).contains(mark.rate)
        else { return }
        let local = mark.at.frames(since: origin)
        let live = base + mark.connectionFrame
        liveLine = LiveLine(anchorLocal: local, anchorPosition: live, rate: mark.rate)
        (firstSettledLocal, liveAtAnchor, liveAboveArrivals) = (local, live, nil)
        followingStation = followingStation || mark.rate != 1
    }
}
