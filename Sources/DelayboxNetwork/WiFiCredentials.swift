/// What a network's name and password may be before the box hands them to NetworkManager:
/// they come from the page (a phone on the hotspot) or the console, and a neighbour's
/// router names itself — checked here, each with what is wrong in words.
public enum WiFiCredentials {
    /// Nil when `ssid` can name a Wi-Fi network: 1-32 bytes (802.11's limit), no control
    /// characters, not beginning with `-` (nmcli would read it as an option).
    public static func networkNameProblem(_ ssid: String) -> String? {
        guard !ssid.isEmpty, ssid.utf8.count <= 32 else {
            return "a network's name is 1-32 bytes; '\(ssid.prefix(40))' is \(ssid.utf8.count)"
        }
        guard !ssid.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) else {
            return "a network's name has no control characters"
        }
        guard !ssid.hasPrefix("-") else { return "a network's name given here may not begin with '-'" }
        return nil
    }

    /// Nil when `password` can be a WPA passphrase: "" (an open network), 8-63 printable
    /// ASCII characters, or 64 hexadecimal digits (the key itself).
    public static func passwordProblem(_ password: String) -> String? {
        if password.isEmpty { return nil }
        let scalars = password.unicodeScalars
        if scalars.count == 64, scalars.allSatisfy({ $0.properties.isASCIIHexDigit }) { return nil }
        guard (8...63).contains(scalars.count), scalars.allSatisfy({ (0x20...0x7e).contains($0.value) }) else {
            return "a Wi-Fi password is 8-63 printable ASCII characters (or none, for an open network)"
        }
        return nil
    }
}
