/// One HTTP request as the web door reads it: its method, path, the few headers it looks
/// at, its body (at most 8 KB: the server refuses more) and the peer's address.
public struct WebRequest: Sendable, Equatable {
    /// The headers the door reads; the server fetches only these.
    public static let headerNames = [
        "Cookie", "Origin", "Host", "Content-Type", "X-Delaybox-CSRF", "Sec-Fetch-Site", passphraseHeader,
    ]
    /// The header a restore's passphrase comes in (base64 of its UTF-8), never in a URL.
    public static let passphraseHeader = "X-Delaybox-Passphrase"

    public var method: String
    /// The path without its query (`/api/status`).
    public var path: String
    /// Header values by lower-cased name.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The peer's address.
    public var client: String
    /// The peer is on the box's own link (its IPv6 /64 is one of the box's: the server
    /// says), where a /64 is a LAN of many homes, not one.
    public var clientOnLink: Bool
    /// The peer's network (`ClientNetwork`): what the login throttle counts.
    public var network: String { ClientNetwork.of(client, onLink: clientOnLink) }

    public init(
        method: String, path: String, headers: [String: String] = [:], body: [UInt8] = [], client: String = "127.0.0.1",
        clientOnLink: Bool = false
    ) {
        self.clientOnLink = clientOnLink
        self.method = method
        self.path = path
        self.headers = Dictionary(
            headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
        self.client = client
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The value of the cookie `name`, if the request carries it.
    public func cookie(_ name: String) -> String? {
        for pair in (header("Cookie") ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingSpaces() == name else { continue }
            return String(parts[1].trimmingSpaces())
        }
        return nil
    }

    /// The body's fields, as a form posts them (`application/x-www-form-urlencoded`).
    public var form: [String: String] { FormFields.decode(body) }
}

extension Substring {
    func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
