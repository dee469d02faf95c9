import DelayboxMQTT

/// `venue hubs`: the venue hubs this box heard on its LAN (`VenueHubSearch`), by name. A
/// Codable answer; the console's text is a hub a line.
public struct VenueHubsAnswer: Codable, Equatable, Sendable {
    public var hubs: [HeardHub]

    public init(hubs: [HeardHub]) { self.hubs = hubs.sorted { $0.name < $1.name } }

    /// A hub a line — its group, name, page and broker — as `venue join HUB KEY` takes the
    /// page's address; or that none answered.
    var text: String {
        guard !hubs.isEmpty else { return "no hub answered on this network" }
        return hubs.map { (hub: HeardHub) -> String in
            let host: String = hub.address.contains(":") ? "[\(hub.address)]" : hub.address
            return "\(hub.group)  \(hub.name)  page \(host):\(hub.pagePort)  broker \(hub.brokerPort)"
        }.joined(separator: "\n")
    }
}
