/// The channels a box offers, in the order "next channel" steps through them, and which
/// one is selected.
public struct ChannelLineup: Sendable, Equatable {
    public private(set) var channels: [Channel]
    /// Index into `channels` of the channel that plays.
    public private(set) var selectedIndex: Int

    /// A lineup of at least one channel with distinct names; throws `InvalidConfiguration`
    /// listing every problem otherwise.
    public init(_ channels: [Channel], selected: Int = 0) throws(InvalidConfiguration) {
        var problems = channels.isEmpty ? ["no channel is configured"] : []
        problems += channels.flatMap { $0.problems() }
        var seen: Set<String> = []
        for channel in channels where !seen.insert(channel.name.lowercased()).inserted {
            problems.append("two channels are named '\(channel.name)'")
        }
        guard problems.isEmpty else { throw InvalidConfiguration(problems: problems) }
        self.channels = channels
        selectedIndex = channels.indices.contains(selected) ? selected : 0
    }

    public var selected: Channel { channels[selectedIndex] }

    /// Selects the channel called `name` (case does not matter); false if there is none.
    @discardableResult
    public mutating func select(named name: String) -> Bool {
        guard let index = channels.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) else {
            return false
        }
        selectedIndex = index
        return true
    }

    /// Selects the next channel, after the last the first.
    public mutating func selectNext() {
        selectedIndex = (selectedIndex + 1) % channels.count
    }
}
