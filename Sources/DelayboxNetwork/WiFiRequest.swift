/// A change to the box's Wi-Fi that the unprivileged service asks root's Wi-Fi helper for
/// (`delaybox wifi-helper`, run by delaybox-wifi.path; issue 66): the only changes to
/// NetworkManager the box makes. The service writes it as a file in its runtime directory,
/// one field a line; root reads it as a stranger's words — every field is checked again
/// there, by `parse`.
public enum WiFiRequest: Sendable, Equatable {
    /// A fresh scan of the networks in reach on `device`, waited for (a radio serving the
    /// hotspot cannot scan: the page's list is this one).
    case scan(device: String)
    /// The box's own hotspot on `device`, opened (again) with this name, channel and password.
    case openHotspot(device: String, ssid: String, channel: Int, password: String)
    /// The box's own hotspot, closed.
    case closeHotspot
    /// `ssid` joined on `device` and kept for the next boot; a password "" is an open network.
    case join(device: String, ssid: String, password: String)
    /// Every network the box joined (its `delaybox-network-…` keyfiles, Imager's first one
    /// among them) forgotten: a factory reset that was asked to (`factory reset --forget-wifi`).
    case forgetNetworks

    /// The first line's word: a file that does not begin with it is not a request.
    static let magic = "delaybox-wifi-request"
    /// The hotspot channels the box chooses among (`HotspotPolicy.channel`): 2.4 GHz's three
    /// that do not overlap.
    static let hotspotChannels: Set<Int> = [1, 6, 11]

    public typealias Problem = HelperRequestFrame.Problem

    /// The file's text, `id` on its first line (the answer names it: an old answer is not
    /// taken for this one's).
    public func text(id: UInt64) -> String {
        let fields: [String]
        switch self {
        case .scan(let device): fields = ["scan", device]
        case .openHotspot(let device, let ssid, let channel, let password):
            fields = ["hotspot", device, ssid, String(channel), password]
        case .closeHotspot: fields = ["close"]
        case .join(let device, let ssid, let password): fields = ["join", device, ssid, password]
        case .forgetNetworks: fields = ["forget"]
        }
        return HelperRequestFrame.text(magic: Self.magic, id: id, fields: fields)
    }

    /// The request in `text` and its id, each field checked as the service's own checks do
    /// (`WiFiCredentials`), and a device's name as the kernel's.
    public static func parse(_ text: String) throws(Problem) -> (id: UInt64, request: WiFiRequest) {
        try HelperRequestFrame.parse(text, magic: magic, what: "Wi-Fi", request: request)
    }

    /// The request in a file's lines after the first.
    static func request(_ fields: [String]) throws(Problem) -> WiFiRequest {
        func count(_ wanted: Int) throws(Problem) { try HelperRequestFrame.count(fields, wanted) }
        switch fields.first {
        case "scan":
            try count(2)
            return .scan(device: try device(fields[1]))
        case "hotspot":
            try count(5)
            guard let channel = Int(fields[3]), hotspotChannels.contains(channel) else {
                throw Problem("a hotspot's channel is 1, 6 or 11, not '\(fields[3].prefix(8))'")
            }
            guard !fields[4].isEmpty else { throw Problem("the box's hotspot has a password") }
            return .openHotspot(
                device: try device(fields[1]), ssid: try ssid(fields[2]), channel: channel,
                password: try password(fields[4]))
        case "close":
            try count(1)
            return .closeHotspot
        case "join":
            try count(4)
            return .join(device: try device(fields[1]), ssid: try ssid(fields[2]), password: try password(fields[3]))
        case "forget":
            try count(1)
            return .forgetNetworks
        default:
            throw Problem("no Wi-Fi request '\(fields.first?.prefix(16) ?? "")' (scan, hotspot, close, join, forget)")
        }
    }

    /// A network interface's name as Linux allows it (1-15 bytes) and nmcli cannot take for
    /// an option: letters, digits, `_`, `.`, `-`, not first.
    static func device(_ name: String) throws(Problem) -> String {
        let allowed = name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a) || byte == 0x5f
                || byte == 0x2e || byte == 0x2d
        }
        guard (1...15).contains(name.utf8.count), allowed, !name.hasPrefix("-") else {
            throw Problem("'\(name.prefix(20))' is not a network device's name")
        }
        return name
    }

    static func ssid(_ name: String) throws(Problem) -> String {
        if let problem = WiFiCredentials.networkNameProblem(name) { throw Problem(problem) }
        return name
    }

    static func password(_ password: String) throws(Problem) -> String {
        if let problem = WiFiCredentials.passwordProblem(password) { throw Problem(problem) }
        return password
    }
}
