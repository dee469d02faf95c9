import DelayboxNetwork
import DelayboxState

/// A Wi-Fi network saved before the box first runs (issue 68): what Raspberry Pi Imager's
/// customisation gives on a flashed card's first boot (`imager_custom set_wlan`), written as
/// NetworkManager's root-only keyfile for any Wi-Fi device, with the country's radio rules
/// for the kernel — NetworkManager is not running yet, so nothing is asked of it.
public struct SavedNetwork: Sendable, Equatable {
    public var ssid: String
    /// A passphrase (8-63 characters), the key itself (64 hex digits, as Imager writes it) or
    /// "" for an open network.
    public var password: String
    /// ISO 3166 alpha-2 (`GB`), or "" to leave the radio's rules as they are.
    public var country: String
    public var hidden: Bool

    /// Checked as the page's are (`WiFiCredentials`); throws what is wrong in words.
    public init(ssid: String, password: String, country: String, hidden: Bool) throws(WiFiRequest.Problem) {
        if let problem = WiFiCredentials.networkNameProblem(ssid) ?? WiFiCredentials.passwordProblem(password) {
            throw WiFiRequest.Problem(problem)
        }
        let upper = country.uppercased()
        guard upper.isEmpty || (upper.count == 2 && upper.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) }) else {
            throw WiFiRequest.Problem("a country is two letters (GB, DE, US), not '\(country.prefix(8))'")
        }
        (self.ssid, self.password, self.country, self.hidden) = (ssid, password, upper, hidden)
    }

    /// Writes the connection into `connections` (0600) and, with a country, the kernel's
    /// radio rules into `modprobe` (read when the Wi-Fi's driver loads: the next boot).
    public func save(connections: String, modprobe: String) throws {
        let keyfile = NetworkManagerKeyfile.network(
            device: "", ssid: ssid, password: password, security: "", hidden: hidden)
        try DurableFile.write(Array(keyfile.text.utf8), to: connections + "/" + keyfile.fileName, mode: 0o600)
        guard !country.isEmpty else { return }
        let rules =
            "# The Wi-Fi country given at the first boot (delaybox wifi-keyfile).\noptions cfg80211 ieee80211_regdom=\(country)\n"
        try DurableFile.write(Array(rules.utf8), to: modprobe + "/delaybox-wifi-country.conf", mode: 0o644)
    }
}
