import DelayboxMQTT

/// `venue hubs`: the venue hubs this box heard on its LAN (`VenueHubSearch`), by name. A
/// Codable answer; the console's text is a hub a line.
public struct VenueHubsAnswer: Codable, Equatable, Sendable {
    public var hubs: [HeardHub]

    public init(hubs: [HeardHub]) { self.hubs = hubs.sorted { $0.name < $1.name } }
}
