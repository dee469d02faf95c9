/// What `nmcli --terse` prints, read as values (docs/web.md, "When the box is lost"). nmcli
/// separates fields with `:` and escapes a `:` or `\` inside a value with `\`. A network's
/// name is a stranger's text (any neighbour's router), so every field is checked here
/// before the box shows or compares it.
public enum NetworkManagerText {
    /// The fields of one terse line.
    public static func fields(_ line: Substring) -> [String] {
        var fields: [String] = []
        var current = ""
        var escaped = false
        for character in line {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        fields.append(current)
        return fields
    }

    /// `nmcli -t -f IN-USE,SSID,SIGNAL,SECURITY,CHAN device wifi list`: the networks in reach,
    /// strongest first, each name once (a network with several access points is listed by its
    /// strongest), hidden ones (no name) and malformed lines left out, at most `limit`.
    public static func networks(_ output: String, limit: Int = 30) -> [WiFiNetwork] {
        var best: [String: WiFiNetwork] = [:]
        for line in output.split(separator: "\n") {
            let parts = fields(line)
            guard parts.count == 5, let signal = Int(parts[2]), (0...100).contains(signal),
                let channel = Int(parts[4]), (1...196).contains(channel),
                WiFiCredentials.networkNameProblem(parts[1]) == nil
            else { continue }
            let network = WiFiNetwork(
                ssid: parts[1], signal: signal, security: parts[3].isEmpty || parts[3] == "--" ? "" : parts[3],
                channel: channel, inUse: parts[0] == "*")
            if let known = best[network.ssid], known.signal >= network.signal, !network.inUse { continue }
            best[network.ssid] = network
        }
        return best.values.sorted { ($0.signal, $1.ssid) > ($1.signal, $0.ssid) }.prefix(limit).map { $0 }
    }

    /// One line of `nmcli -t -f NAME,TYPE,DEVICE,STATE connection show --active`.
    public struct ActiveConnection: Sendable, Equatable {
        public var name: String
        public var type: String
        public var device: String
        public var state: String
    }

    /// The active connections.
    public static func activeConnections(_ output: String) -> [ActiveConnection] {
        output.split(separator: "\n").compactMap { line in
            let parts = fields(line)
            guard parts.count == 4 else { return nil }
            return ActiveConnection(name: parts[0], type: parts[1], device: parts[2], state: parts[3])
        }
    }

    /// The network the box is on, if any: an activated connection that is neither the
    /// loopback (NetworkManager 1.42 lists `lo`) nor the box's own hotspot.
    public static func workingConnection(_ connections: [ActiveConnection], hotspot: String) -> ActiveConnection? {
        connections.first { $0.state == "activated" && $0.type != "loopback" && $0.name != hotspot }
    }

    /// The first Wi-Fi device of `nmcli -t -f DEVICE,TYPE,STATE device` (not Wi-Fi P2P), and its state.
    public static func wifiDevice(_ output: String) -> (device: String, state: String)? {
        for line in output.split(separator: "\n") {
            let parts = fields(line)
            if parts.count == 3, parts[1] == "wifi", !parts[0].isEmpty { return (parts[0], parts[2]) }
        }
        return nil
    }

    /// nmcli's error for people: its last line, `Error: ` taken off, at most 200 characters.
    public static func errorText(_ output: String) -> String {
        let line = output.split(separator: "\n").last.map(String.init) ?? ""
        let text = line.hasPrefix("Error: ") ? String(line.dropFirst("Error: ".count)) : line
        return text.isEmpty ? "nmcli failed" : String(text.prefix(200))
    }
}

/// A Wi-Fi network in reach of the box's radio.
public struct WiFiNetwork: Sendable, Equatable, Codable {
    public var ssid: String
    /// NetworkManager's signal quality (0-100).
    public var signal: Int
    /// `WPA2`, `WPA1 WPA2`, `WPA3`, …; "" for an open network.
    public var security: String
    /// The radio channel it was seen on.
    public var channel: Int
    /// The box is on it.
    public var inUse: Bool

    enum CodingKeys: String, CodingKey {
        case ssid, signal, security, channel
        case inUse = "in_use"
    }

    public init(ssid: String, signal: Int, security: String, channel: Int = 6, inUse: Bool = false) {
        self.ssid = ssid
        self.signal = signal
        self.security = security
        self.channel = channel
        self.inUse = inUse
    }
}
