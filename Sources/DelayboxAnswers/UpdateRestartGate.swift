import DelayboxConfig
import DelayboxEngine

/// Whether a new release may restart the box now (issue 57): never in the middle of a
/// programme. The box is quiet when nothing of the station is heard — paused, connecting,
/// building its delay, stopped, or off the air once the audio it held has played out —
/// and has been for `quietSeconds` (a pause of a moment, or a reconnect that the held audio
/// bridges, is not quiet). Or it is inside the owner's `update.window` on the local clock.
/// `status` says the verdict as `update_restart`; the package's release-check asks it
/// before it restarts the service for a release apt installed.
public struct UpdateRestartGate: Sendable {
    /// How long the box must have been quiet before a restart may cut in (s).
    public static let quietSeconds: Int64 = 10
    /// Since when nothing of the station has been heard; nil while it plays.
    public private(set) var quietSince: Instant?

    public init() {}

    /// One playout wake-up's state; `held`: the audio held ahead of playout.
    public mutating func observe(state: SessionState, held: TimeAmount, now: Instant) {
        let quiet =
            switch state {
            case .playing: false
            case .reconnecting: held <= .zero
            case .idle, .connecting, .buffering, .paused, .stopped, .failed: true
            }
        if !quiet {
            quietSince = nil
        } else if quietSince == nil {
            quietSince = now
        }
    }

    /// `now: paused`, `now: in the update window 04:00-05:00` when a restart cuts nothing, else `waits: WHY`. `minuteOfDay`: the local
    /// clock's minute (0..<1440), nil while the clock cannot be believed.
    public func verdict(state: SessionState, now: Instant, window: UpdateWindow, minuteOfDay: Int?) -> String {
        if let quietSince, now - quietSince >= .seconds(Self.quietSeconds) {
            // (No running count: MQTT and the page republish the status when it changes.)
            return "now: \(state.rawValue)"
        }
        if let minuteOfDay, window.contains(minuteOfDay: minuteOfDay) {
            return "now: in the update window \(window)"
        }
        return "waits: \(state.rawValue) (the update window: \(window))"
    }
}
