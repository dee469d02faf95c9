/// `mqtt:` — the broker the box reports to and takes commands from (docs/mqtt.md).
public struct MQTTSettings: Sendable, Equatable {
    public var host: String
    /// TCP port: 1883 for `mqtt://`, 8883 for `mqtts://` unless the URL names one.
    public var port: Int
    /// TLS (`mqtts://`), verified against `caFile` (the system's CAs when nil).
    public var tls: Bool
    /// A PEM file of the CA(s) that signed the broker's certificate.
    public var caFile: String?
    /// The client id; nil: the box's hostname.
    public var clientID: String?
    public var username: String?
    public var password: Secret?
    /// Where the box's topics live; nil: `delaybox/<client id>`.
    public var topicPrefix: String?
    /// A venue group whose commands (`delaybox/group/<group>/command`) the box follows too.
    public var group: String?
    /// What says how near the box's wall clock is to the room's (`mqtt.venue_clock`).
    public var venueClock: VenueClockSource

    public init(
        host: String, port: Int, tls: Bool = false, caFile: String? = nil, clientID: String? = nil,
        username: String? = nil,
        password: Secret? = nil, topicPrefix: String? = nil, group: String? = nil,
        venueClock: VenueClockSource = .chrony
    ) {
        self.host = host
        self.port = port
        self.tls = tls
        self.caFile = caFile
        self.clientID = clientID
        self.username = username
        self.password = password
        self.topicPrefix = topicPrefix
        self.group = group
        self.venueClock = venueClock
    }

    /// The broker as a URL: `mqtts://broker.venue.lan:8883`.
    public var brokerURL: String { "\(tls ? "mqtts" : "mqtt")://\(host):\(port)" }

    /// Host, port and TLS from `mqtt://HOST[:PORT]` or `mqtts://HOST[:PORT]`, or why the
    /// URL is not one.
    public static func broker(_ url: String) -> Result<(host: String, port: Int, tls: Bool), BrokerURLError> {
        let tls: Bool
        let rest: Substring
        if url.hasPrefix("mqtt://") {
            tls = false; rest = url.dropFirst(7)
        } else if url.hasPrefix("mqtts://") {
            tls = true; rest = url.dropFirst(8)
        } else {
            return .failure(
                BrokerURLError("'\(url)' is not an MQTT broker URL (mqtt://HOST[:PORT] or mqtts://HOST[:PORT])"))
        }
        let authority = rest.hasSuffix("/") ? rest.dropLast() : rest
        guard !authority.contains("/"), !authority.contains("@") else {
            return .failure(
                BrokerURLError("'\(url)': only a host and a port (credentials go in mqtt.username and mqtt.password)"))
        }
        var host = authority, port = tls ? 8883 : 1883
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65_535).contains(number) else {
                return .failure(BrokerURLError("'\(url)': the port is 1-65535"))
            }
            host = authority[..<colon]
            port = number
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { return .failure(BrokerURLError("'\(url)' names no host")) }
        return .success((String(host), port, tls))
    }

    public struct BrokerURLError: Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// Whether `text` may be one level (or, with slashes, levels) of a topic we publish to:
    /// no MQTT wildcard, no empty level, no control characters.
    public static func isTopicPath(_ text: String) -> Bool {
        !text.isEmpty && !text.contains("+") && !text.contains("#")
            && !text.split(separator: "/", omittingEmptySubsequences: false).contains("")
            && !text.unicodeScalars.contains { $0.value < 0x20 }
    }
}

/// `mqtt.venue_clock`: whom a group's box asks whether its wall clock is the room's to a
/// millisecond before its figures count (`VenueClock`).
public enum VenueClockSource: String, Sendable, CaseIterable {
    /// chrony, about the server it follows (the venue's hub).
    case chrony
    /// Nobody: this box's clock is the room's — the hub that serves the time, or boxes
    /// sharing one machine's clock.
    case own
}
