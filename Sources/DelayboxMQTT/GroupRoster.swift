import DelayboxUnits

/// The group's other boxes as last heard on its `member/<box>` topics (`group` on the
/// console): each box's latest `GroupMember` report and when it came, at most `largest`
/// boxes — a venue's screens, not every publisher a broker has. A box new to a full roster
/// takes the place of the one heard from longest ago.
public struct GroupRoster: Sendable {
    /// The most boxes kept.
    public static let largest = 32
    private var members: [String: (member: GroupMember, heard: Instant)] = [:]

    public init() {}

    /// `member`'s report, heard at `now`.
    public mutating func heard(_ member: GroupMember, at now: Instant) {
        if members[member.box] == nil, members.count >= Self.largest,
            let oldest = members.min(by: { $0.value.heard < $1.value.heard })?.key
        {
            members[oldest] = nil
        }
        members[member.box] = (member, now)
    }

    /// The boxes by name, each with the whole seconds since it was last heard, at `now`.
    public func members(at now: Instant) -> [(member: GroupMember, heardSecondsAgo: Int)] {
        members.values.sorted { $0.member.box < $1.member.box }.map {
            ($0.member, Int((now - $0.heard).wholeSeconds))
        }
    }
}
