/// How long this box has taken part in its room (issue 70): settled once it has for
/// `VenueAlignment.settledAfter`. Taking part needs the group and a trusted wall clock; a box
/// that leaves its group, or whose clock goes untrusted for longer than `forgottenAfter`
/// (chrony lost its hub, a box back after an hour unplugged from the LAN), comes back as a
/// newcomer: it moves to the room instead of counting as settled at once. A shorter lapse
/// (a hub's chrony restarting) keeps the tenure: the whole room would otherwise forget it
/// together and meet halfway again. Pure; the caller's clock.
public struct RoomTenure: Sendable {
    /// How long the clock may go untrusted before the tenure is forgotten.
    public static let forgottenAfter = VenueAlignment.settledAfter

    private var since: Instant?
    private var untrustedSince: Instant?

    public init() {}

    /// Looked at `now`: whether the box is in a group (`member`) and its clock trusted.
    /// Answers whether it is settled now; nil while it does not take part.
    public mutating func look(member: Bool, trusted: Bool, now: Instant) -> Bool? {
        guard member else {
            (since, untrustedSince) = (nil, nil)
            return nil
        }
        guard trusted else {
            let lapse = untrustedSince ?? now
            untrustedSince = lapse
            if now - lapse >= Self.forgottenAfter { since = nil }
            return nil
        }
        untrustedSince = nil
        let start = since ?? now
        since = start
        return now - start >= VenueAlignment.settledAfter
    }
}
