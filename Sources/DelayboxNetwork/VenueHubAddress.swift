/// A hub's page as `venue join HUB KEY` names it: `HOST`, `HOST:PORT`, `[IPV6]:PORT` or a
/// bare IPv6 address; the port is the page's (80 when left out). The host is checked as a
/// join code's (`VenueJoinCode.hubAddress`).
public struct VenueHubAddress: Sendable, Equatable {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) { (self.host, self.port) = (host, port) }

    /// The hub `text` names, or why not.
    public static func parse(_ text: String) -> Result<VenueHubAddress, HelperRequestFrame.Problem> {
        var (host, portText) = (Substring(text), Substring?.none)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else {
                return .failure(.init("'\(text.prefix(70))' is not a hub's address"))
            }
            portText = rest.isEmpty ? nil : rest.dropFirst()
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            (host, portText) = (text[..<colon], text[text.index(after: colon)...])
        }
        let port = portText.map { Int($0) ?? 0 } ?? 80
        guard (1...65535).contains(port) else { return .failure(.init("a hub's page port is 1-65535")) }
        do throws(HelperRequestFrame.Problem) {
            return .success(VenueHubAddress(host: try VenueJoinCode.hubAddress(String(host)), port: port))
        } catch {
            return .failure(error)
        }
    }

    /// As a URL's authority takes it (an IPv6 address in brackets).
    public var authority: String { (host.contains(":") ? "[\(host)]" : host) + ":\(port)" }
}
