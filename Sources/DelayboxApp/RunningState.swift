import DelayboxConfig
import DelayboxEngine

/// What the box is doing, as a listener sets it: the channel, the delay, the volume and
/// mute, paused or not, the ads and the presets, and the config in force. Every door's
/// commands change it in one place (`Playout`), which says what changed (`changes(since:)`,
/// to the log); `status` reports it.
struct RunningState: Equatable {
    var channel: String
    var delay: TimeAmount
    var volume: Int
    var muted: Bool
    var paused: Bool
    var adsEnabled: Bool
    /// Delays saved by slot.
    var presets: [Int: Int64]
    var config: BoardConfig

    /// What differs from `earlier`, a line each (`delay: 3000 → 4250 ms`, `paused`,
    /// `preset 2 saved: 4250 ms`). A channel switch and a config change are told where
    /// they happen (`PlayoutLog`, `ConfigInForce`), with more than this knows.
    func changes(since earlier: RunningState) -> [String] {
        var lines: [String] = []
        if delay != earlier.delay { lines.append("delay: \(earlier.delay.milliseconds) → \(delay.milliseconds) ms") }
        if volume != earlier.volume { lines.append("volume: \(earlier.volume) → \(volume)") }
        if muted != earlier.muted { lines.append(muted ? "muted" : "unmuted") }
        if paused != earlier.paused { lines.append(paused ? "paused" : "resumed") }
        if adsEnabled != earlier.adsEnabled { lines.append("ads: \(adsEnabled ? "on" : "off")") }
        for slot in presets.keys.sorted() where presets[slot] != earlier.presets[slot] {
            lines.append("preset \(slot) saved: \(presets[slot]!) ms")
        }
        return lines
    }
}
