import DelayboxPlatform
import DelayboxUnits

/// The page's addresses a phone can open (issue 60): `http://NAME.local/`, which many
/// Android browsers cannot resolve (mDNS), and the box's own address by number. Read from
/// the interfaces at most every 10 s: `status` is asked each second by an open page.
public final class PageLinks {
    /// How long one reading of the interfaces stands (s).
    static let refreshSeconds: Int64 = 10
    private var read: (at: Instant, address: String?)?

    public init() {}

    /// The page's link by number at `now`, for `port`; nil when the box has no address
    /// a phone on the LAN could reach (only loopback or link-local).
    public func byNumber(port: Int, now: Instant) -> String? {
        if let read, now - read.at < .seconds(Self.refreshSeconds) { return read.address }
        let address = Self.link(port: port, addresses: SystemFigures.read().addresses)
        read = (now, address)
        return address
    }

    /// The page's link by the hostname's mDNS name.
    public static func byName(port: Int) -> String {
        "http://\(HostName.current()).local\(port == 80 ? "" : ":\(port)")/"
    }

    /// The first link by number among `addresses` (each "INTERFACE ADDRESS", as
    /// `SystemFigures` reads them), for `port`.
    public static func link(port: Int, addresses: [String]) -> String? {
        lanAddress(among: addresses).map { address in
            let host = address.contains(":") ? "[\(address)]" : address
            return "http://\(host)\(port == 80 ? "/" : ":\(port)/")"
        }
    }

    /// The box's address a phone or another box on the LAN can reach, among `addresses`:
    /// an IPv4 address before an IPv6 one, never a link-local one (169.254/16, fe80::/10:
    /// not what a phone on the LAN is given).
    public static func lanAddress(among addresses: [String]) -> String? {
        let numbers = addresses.compactMap { $0.split(separator: " ").last.map(String.init) }
        if let v4 = numbers.first(where: { $0.contains(".") && !$0.contains(":") && !$0.hasPrefix("169.254.") }) {
            return v4
        }
        return numbers.first { $0.contains(":") && !$0.lowercased().hasPrefix("fe80") && !$0.contains("%") }
    }
}
