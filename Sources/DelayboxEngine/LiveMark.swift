import DelayboxChecked

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
    /// How far a held mark may put live from where the replayed arrivals do (frames, 1 s):
    /// the two differ by a placement's jitter, milliseconds.
    static let heldMarkAgreementFrames = Int64(AudioFormat.sampleRate)

    /// Where live is at `now` on the connection being played, once its placement is fixed;
    /// nil before.
    public func liveMark(at now: Instant) -> LiveMark? {
        guard case .fixed = placement.phase, let base = placement.base, liveClock.origin != nil else { return nil }
        return LiveMark(at: now, connectionFrame: livePosition(at: now).count - base, rate: liveClock.line.rate)
    }

    /// Holds live where `mark` puts it on the connection being played (placed for good),
    /// and follows the station from there: live is anchored at the mark, so the next fits
    /// of the arrivals move it only by how their rate differs from then on. A mark read
    /// from a damaged journal — a rate no crystal runs at, live more than
    /// `heldMarkAgreementFrames` from where the replayed arrivals put it — is not held.
    public func hold(_ mark: LiveMark) {
        guard case .fixed = placement.phase, let base = placement.base, let local = liveClock.local(at: mark.at),
            abs(mark.rate - 1) * 1e6 <= StationClock.plausiblePpm,
            let live = Checked.sum(base, mark.connectionFrame),
            let off = Checked.difference(live, livePosition(at: mark.at).count),
            abs(off) <= Self.heldMarkAgreementFrames
        else { return }
        liveClock.hold(position: StationFrames(live), atLocal: local, rate: mark.rate)
    }
}
