/// `venue`: this box's part in a venue (issue 70) — its hub, a box of one, or neither — as
/// its MQTT settings say. A Codable answer.
public struct VenueAnswer: Codable, Equatable, Sendable {
    /// `hub`, `box` or `none`.
    public var role: String
    public var group: String?
    /// The broker it reports to (`mqtt://HOST:PORT`), when in a venue.
    public var broker: String?

    public init(role: String, group: String?, broker: String?) {
        (self.role, self.group, self.broker) = (role, group, broker)
    }
}
