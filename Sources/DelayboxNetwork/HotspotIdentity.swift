/// The box's own hotspot: its network name (from the box's name) and its WPA2 password —
/// the same at every opening, so that it can be printed on the box's label
/// (docs/deploy.md: `delaybox hotspot` prints both) and spoken when it opens. Unless the board
/// config gives one, the password is 12 digits derived from `/etc/machine-id`, which is
/// read on the box only: a neighbour who knows the box's name cannot work it out.
public struct HotspotIdentity: Sendable, Equatable {
    /// The connection NetworkManager keeps for it (what `nmcli connection` lists).
    public static let connectionName = "delaybox-hotspot"
    /// The network's name: `Delaybox-NAME`, at most 32 bytes.
    public var ssid: String
    public var password: String

    /// - Parameters:
    ///   - boxName: the box's hostname.
    ///   - machineID: `/etc/machine-id`'s text (32 hex digits), nil when there is none.
    ///   - password: the board config's `wifi.hotspot_password`, when given (already checked).
    public init(boxName: String, machineID: String?, password: String? = nil) {
        var name = "Delaybox-" + boxName.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        while name.utf8.count > 32 { name.removeLast() }
        ssid = name
        self.password = password ?? Self.derivedPassword(machineID: machineID ?? boxName)
    }

    /// 12 decimal digits of a 64-bit FNV-1a hash of the machine's id (40 bits: enough
    /// against a guess over the air's handshake for the minutes the hotspot is open).
    static func derivedPassword(machineID: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in ("delaybox-hotspot:" + machineID.filter { !$0.isWhitespace }).utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash % 1_000_000_000_000)
        return String(repeating: "0", count: 12 - digits.count) + digits
    }

    /// The password as a listener writes it down: digits said one by one, in groups of four
    /// (`4 8 1 5, 1 6 2 3, …`); another password letter by letter.
    public var spokenPassword: String {
        let characters = password.map(String.init)
        guard password.allSatisfy(\.isNumber) else { return characters.joined(separator: " ") }
        return stride(from: 0, to: characters.count, by: 4).map {
            characters[$0..<min($0 + 4, characters.count)].joined(separator: " ")
        }.joined(separator: ", ")
    }
}
