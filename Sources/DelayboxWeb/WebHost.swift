/// Which names the page answers to: an address (IPv4, or IPv6 in brackets), `localhost`,
/// a name with no dot (a LAN's short name), or one under a local suffix (`.local`, mDNS;
/// `.lan`, `.home`, `.internal`, `.home.arpa`), each with an optional port. A request for
/// any other name is refused: that is DNS rebinding — a site on the internet whose name
/// an attacker pointed at the box's address, so that the listener's own browser would
/// treat the box as that site and let its script choose the first password or guess one.
public enum WebHost {
    static let localSuffixes = [".local", ".lan", ".home", ".internal", ".home.arpa"]

    /// Whether a `Host` header's value names the box on its network.
    public static func isLocal(_ host: String) -> Bool {
        let name = withoutPort(host.lowercased())
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        if name.hasPrefix("[") {
            return name.hasSuffix("]")
                && name.dropFirst().dropLast().allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        }
        if isIPv4(name) || name == "localhost" { return true }
        let trimmed = name.hasSuffix(".") ? String(name.dropLast()) : name
        guard trimmed.allSatisfy({ $0.isLetter && $0.isASCII || $0.isNumber && $0.isASCII || $0 == "-" || $0 == "." })
        else { return false }
        return !trimmed.contains(".") || localSuffixes.contains { trimmed.hasSuffix($0) }
    }

    private static func withoutPort(_ host: String) -> String {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return host }
            return String(host[...close])
        }
        guard let colon = host.lastIndex(of: ":"), host[host.index(after: colon)...].allSatisfy(isDigit) else {
            return host
        }
        return String(host[..<colon])
    }

    private static func isIPv4(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { $0.count <= 3 && $0.allSatisfy(isDigit) && (Int($0).map { $0 <= 255 } ?? false) }
    }

    /// 0-9 only: `Character.isNumber` is also true of `²` and `٣`, which `Int` refuses (the
    /// web fuzz target's first find: a trap from a Host header).
    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }
}
