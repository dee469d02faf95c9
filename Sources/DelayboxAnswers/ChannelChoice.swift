import DelayboxEngine

/// The channels in force and the one asked for: the panel's and the remote's "next
/// channel" and the console's `channel next` and `channel NAME` all choose here, so they
/// agree; the playout switches to the choice before its next period.
public struct ChannelChoice {
    public private(set) var lineup: ChannelLineup
    /// Whether a channel was asked for since the last `takeRequest`.
    private var requested = false

    public init(lineup: ChannelLineup) { self.lineup = lineup }

    /// The channel after the one chosen last (after the last, the first).
    public mutating func next() -> Channel {
        lineup.selectNext()
        requested = true
        return lineup.selected
    }

    /// The channel called `name` (case does not matter); nil when there is none.
    public mutating func select(named name: String) -> Channel? {
        guard lineup.select(named: name) else { return nil }
        requested = true
        return lineup.selected
    }

    /// The channel asked for since the last call, if any.
    public mutating func takeRequest() -> Channel? {
        defer { requested = false }
        return requested ? lineup.selected : nil
    }

    /// A new lineup (the config changed). The channel asked for stays chosen while it is
    /// in it, else the one playing does. Returns how the lineup defines `playing`; nil
    /// when it is no longer in it.
    public mutating func replace(with fresh: ChannelLineup, playing: String) -> Channel? {
        let chosen = requested ? lineup.selected.name : playing
        lineup = fresh
        if !lineup.select(named: chosen) {
            requested = false
            lineup.select(named: playing)
        }
        return fresh.channels.first { $0.name.lowercased() == playing.lowercased() }
    }
}
