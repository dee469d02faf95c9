/// The box's Wi-Fi as its keeper last saw it (`wifi` on the console and the page).
public struct WiFiState: Sendable, Equatable {
    /// Why the box cannot look after its Wi-Fi (no NetworkManager, no Wi-Fi device); nil: it can.
    public var problem: String?
    /// The Wi-Fi device (`wlan0`).
    public var device: String?
    /// The network the box is on (NetworkManager's connection: a Wi-Fi network's name, or a
    /// wired connection's); nil: none.
    public var network: String?
    /// The hotspot's name and password (shown at the box's own doors; the label's).
    public var hotspot: HotspotIdentity
    /// Whether the hotspot is open now, and why it opened.
    public var hotspotOpen = false
    public var hotspotReason: String?
    /// The networks in reach as last scanned (while the hotspot is open: before it opened —
    /// a radio serving a hotspot does not scan).
    public var networks: [WiFiNetwork] = []
    /// A network being joined now.
    public var joining: String?
    /// How the last join went, in words.
    public var lastJoin: String?

    public init(hotspot: HotspotIdentity) { self.hotspot = hotspot }
}

/// What the keeper tells the playout, which says it aloud.
public enum WiFiEvent: Sendable, Equatable {
    case hotspotOpened(reason: String)
    case hotspotClosed(reason: String)
    case joined(String)
    case joinFailed(String, reason: String)
}
