import DelayboxNetwork

/// What `wifi` answers: the network the box is on, its hotspot (open or not, its name; its
/// password at the box's own doors only — the serial console, delayboxctl — never the
/// page's: it is on the label and spoken), the networks in reach, how the last join went.
/// A Codable answer (`JSONValue`); the console's text a line each.
public struct WiFiAnswer: Codable, Equatable, Sendable {
    /// The Wi-Fi device (`wlan0`); nil: none.
    public var device: String?
    /// The network the box is on; nil: none.
    public var network: String?
    public var hotspot: String
    /// Nil where it is not shown (a network door).
    public var hotspotPassword: String?
    public var hotspotOpen: Bool
    /// Why it is open, or when it opens by itself.
    public var hotspotNote: String
    public var networks: [WiFiNetwork]
    public var joining: String?
    public var lastJoin: String?
    /// Why the box cannot look after its Wi-Fi.
    public var problem: String?

    enum CodingKeys: String, CodingKey {
        case device, network, hotspot
        case hotspotPassword = "hotspot_password"
        case hotspotOpen = "hotspot_open"
        case hotspotNote = "hotspot_note"
        case networks, joining
        case lastJoin = "last_join"
        case problem
    }

    /// - Parameter showPassword: the asker is at the box (its console, delayboxctl).
    init(_ state: WiFiState, after: String, showPassword: Bool) {
        device = state.device
        network = state.network
        hotspot = state.hotspot.ssid
        hotspotPassword = showPassword ? state.hotspot.password : nil
        hotspotOpen = state.hotspotOpen
        hotspotNote = state.hotspotOpen ? "open: \(state.hotspotReason ?? "asked")" : after
        networks = state.networks
        joining = state.joining
        lastJoin = state.lastJoin
        problem = state.problem
    }

    /// What a network door reads instead of the hotspot's password.
    static let passwordElsewhere = "set (at the box's console or delayboxctl wifi, and spoken)"

    /// The console's lines.
    var text: String {
        var lines = [
            "network: \(network ?? "none")\(device.map { " (Wi-Fi device \($0))" } ?? "")",
            "hotspot: \(hotspot), password \(hotspotPassword ?? Self.passwordElsewhere) (\(hotspotNote))",
        ]
        if let problem { lines.append("problem: \(problem)") }
        if let joining { lines.append("joining: \(joining)") }
        if let lastJoin { lines.append("last join: \(lastJoin)") }
        lines.append(networks.isEmpty ? "no network in reach seen" : "in reach:")
        lines += networks.map {
            "\($0.inUse ? "* " : "  ")\($0.ssid)  \($0.signal)%  \($0.security.isEmpty ? "open" : $0.security)"
        }
        return lines.joined(separator: "\n")
    }
}
