import DelayboxConfig

/// The door's answer to one request: a status, headers, and a body — or the status
/// stream (Server-Sent Events), which the server reads from the door's feed.
public struct WebResponse: Sendable, Equatable {
    public enum Body: Sendable, Equatable {
        case bytes([UInt8])
        /// `text/event-stream`: the status now, then at each change.
        case statusEvents
    }

    public var status: Int
    /// Name, value pairs, in order.
    public var headers: [[String]]
    public var body: Body

    public init(status: Int, headers: [[String]] = [], body: Body) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The body as text (a test's view).
    public var text: String {
        if case .bytes(let bytes) = body { return String(decoding: bytes, as: UTF8.self) }
        return ""
    }

    public func header(_ name: String) -> String? {
        headers.first { $0[0].lowercased() == name.lowercased() }?[1]
    }

    /// A JSON document (already encoded).
    static func json(_ text: String, status: Int = 200) -> WebResponse {
        WebResponse(status: status, headers: [["Content-Type", "application/json"]], body: .bytes(Array(text.utf8)))
    }

    /// `{"error": MESSAGE}`: what went wrong, in words the page shows.
    static func error(_ message: String, status: Int) -> WebResponse {
        json(WebAnswer(error: message).json, status: status)
    }
}
