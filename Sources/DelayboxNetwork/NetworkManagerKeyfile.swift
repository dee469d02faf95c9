/// The connections root's Wi-Fi helper gives NetworkManager, as keyfiles (NetworkManager's
/// own format, `/etc/NetworkManager/system-connections/*.nmconnection`, mode 0600): the
/// password inside a root-only file that `nmcli connection load` reads, never on a
/// command line where any local user reads it in /proc (issue 66).
public struct NetworkManagerKeyfile: Sendable, Equatable {
    /// The file's name in NetworkManager's connection directory.
    public var fileName: String
    /// The connection's uuid (what `nmcli connection up uuid …` names).
    public var uuid: String
    public var text: String

    /// The box's own hotspot: WPA2 on `channel` of 2.4 GHz, the phones given addresses by
    /// NetworkManager (`shared`), never started by itself (the keeper opens it when lost).
    public static func hotspot(device: String, ssid: String, channel: Int, password: String) -> NetworkManagerKeyfile {
        let uuid = uuid(for: "hotspot")
        let text = """
            [connection]
            id=\(escaped(HotspotIdentity.connectionName))
            uuid=\(uuid)
            type=wifi
            interface-name=\(device)
            autoconnect=false

            [wifi]
            mode=ap
            band=bg
            channel=\(channel)
            ssid=\(bytes(ssid))

            [wifi-security]
            key-mgmt=wpa-psk
            proto=rsn
            pairwise=ccmp
            group=ccmp
            psk=\(escaped(password))

            [ipv4]
            method=shared

            [ipv6]
            method=ignore

            """
        return NetworkManagerKeyfile(fileName: HotspotIdentity.connectionName + ".nmconnection", uuid: uuid, text: text)
    }

    /// A network the owner chose, joined again at every boot. `security` is what the scan
    /// said (`WPA2`, `WPA3`, …): a network that offers WPA3 alone takes SAE, any other with
    /// a password WPA-PSK; no password, an open one. One file per network name, so choosing
    /// it again replaces its password rather than adding a second connection. `device` ""
    /// takes any Wi-Fi device (a network saved before the box has run: Imager's); `hidden`,
    /// a network that does not say its name (probed for by name).
    /// How the keyfile of every network the box joined begins (its hotspot's does not).
    public static let networkPrefix = "delaybox-network-"

    public static func network(
        device: String, ssid: String, password: String, security: String, hidden: Bool = false
    ) -> NetworkManagerKeyfile {
        let uuid = uuid(for: "network " + ssid)
        let wpa3Only = security.contains("WPA3") && !security.contains("WPA2") && !security.contains("WPA1")
        let protection =
            password.isEmpty
            ? ""
            : """

            [wifi-security]
            key-mgmt=\(wpa3Only ? "sae" : "wpa-psk")
            psk=\(escaped(password))

            """
        let text = """
            [connection]
            id=\(escaped(ssid))
            uuid=\(uuid)
            type=wifi
            \(device.isEmpty ? "" : "interface-name=" + device + "\n")autoconnect=true

            [wifi]
            mode=infrastructure
            ssid=\(bytes(ssid))
            \(hidden ? "hidden=true\n" : "")\(protection)
            [ipv4]
            method=auto

            [ipv6]
            method=auto

            """
        let name = networkPrefix + ssid.utf8.map { hexDigits($0) }.joined() + ".nmconnection"
        return NetworkManagerKeyfile(fileName: name, uuid: uuid, text: text)
    }

    /// A value as a GLib key file keeps it: `\` doubled, spaces as `\s` (a leading or
    /// trailing one would be lost), so that the password read back is the one given.
    static func escaped(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case " ": out += "\\s"
            default: out.append(character)
            }
        }
        return out
    }

    /// A network's name as its bytes (`99;108;…;`): NetworkManager reads that form as bytes
    /// whatever they are — a name of digits and `;` is not taken for a list by mistake.
    static func bytes(_ ssid: String) -> String { ssid.utf8.map { "\($0);" }.joined() }

    private static func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
    }

    /// A uuid that is the same for the same `name` on every box (two FNV-1a hashes of it,
    /// version 4's layout): the file written again updates its connection.
    static func uuid(for name: String) -> String {
        func fnv(_ basis: UInt64) -> UInt64 {
            name.utf8.reduce(basis) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        }
        let high = fnv(0xcbf2_9ce4_8422_2325), low = fnv(0x8422_2325_cbf2_9ce4)
        let bytes =
            (0..<8).map { UInt8(truncatingIfNeeded: high >> (56 - 8 * $0)) }
            + (0..<8).map { UInt8(truncatingIfNeeded: low >> (56 - 8 * $0)) }
        var marked = bytes
        marked[6] = marked[6] & 0x0f | 0x40
        marked[8] = marked[8] & 0x3f | 0x80
        let hex = marked.map { hexDigits($0) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(
            separator: "-")
    }
}
