/// The box's own hotspot: its network name (from the box's name) and its WPA2 password —
/// the same at every opening, so that it can be written on the box's label and spoken when
/// it opens: the board config's `wifi.hotspot_password` (an installer's label), else the
/// box's own, random, made at its first start and kept beside its settings
/// (`HotspotPasswordFile`). Nothing another user or another card can read derives it.
public struct HotspotIdentity: Sendable, Equatable {
    /// The connection NetworkManager keeps for it (what `nmcli connection` lists).
    public static let connectionName = "delaybox-hotspot"
    /// The network's name: `Delaybox-NAME`, at most 32 bytes.
    public var ssid: String
    public var password: String

    /// - Parameters:
    ///   - boxName: the box's hostname.
    ///   - password: the hotspot's password (already checked: 8-63 printable characters).
    public init(boxName: String, password: String) {
        var name = "Delaybox-" + boxName.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        while name.utf8.count > 32 { name.removeLast() }
        ssid = name
        self.password = password
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
