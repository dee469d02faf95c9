import DelayboxJSON

/// What the box says to one console request, as a value every door renders its own way:
/// the console and the control socket as lines or JSON (`rendered(json:)`, the one place a
/// refusal becomes `error: …` text), MQTT as a reply with the answer's fields, the page as
/// JSON with an HTTP status, `delayboxctl` as its exit status (`kind`).
public struct ConsoleReply: Sendable, Equatable {
    /// How the request went: what `delayboxctl`'s exit status and the page's HTTP status say.
    public enum Kind: String, Sendable, CaseIterable {
        /// Answered, or done.
        case ok
        /// Not a line of the language, or a bad argument (`delay soon`).
        case usage
        /// Understood and refused: an empty preset, a key that does not exist, a channel
        /// nobody named.
        case refused
        /// The box cannot do it now, or not on this board: stopping, not answering in time,
        /// a door or a device it does not have.
        case unavailable
    }

    public var kind: Kind
    /// The answer's fields in their order (a Codable answer's, `JSONValue(encoding:)`);
    /// null when there are none (a refusal's reason alone, help's text).
    public var fields: JSONValue
    /// The lines a person reads when they are not the fields' `key: value` lines (a list,
    /// a live view, help); for a refusal without fields, its reason.
    public var text: String?

    public init(kind: Kind, fields: JSONValue, text: String?) {
        self.kind = kind
        self.fields = fields
        self.text = text
    }

    /// A Codable answer: its fields, shown as `key: value` lines or one JSON object.
    public static func answer(_ value: some Encodable) -> ConsoleReply {
        ConsoleReply(kind: .ok, fields: JSONValue(encoding: value), text: nil)
    }

    /// A Codable answer whose lines for a person are `text` (a list, a view).
    public static func answer(_ value: some Encodable, text: String) -> ConsoleReply {
        ConsoleReply(kind: .ok, fields: JSONValue(encoding: value), text: text)
    }

    /// Text alone, in JSON too (help).
    public static func text(_ text: String) -> ConsoleReply { ConsoleReply(kind: .ok, fields: .null, text: text) }

    /// A refusal of `kind` (not `ok`) and why, in the console's words.
    public static func refusal(_ kind: Kind, _ reason: String) -> ConsoleReply {
        ConsoleReply(kind: kind == .ok ? .refused : kind, fields: .null, text: reason)
    }

    /// A command refused with an answer that still says where things stand (the delay,
    /// the volume and the state after a refused `preset 4`).
    public static func refused(_ value: some Encodable) -> ConsoleReply {
        ConsoleReply(kind: .refused, fields: JSONValue(encoding: value), text: nil)
    }

    /// A line of the language that could not be understood.
    public static func usage(_ error: ConsoleError) -> ConsoleReply { refusal(.usage, error.description) }

    /// The reason of a refusal that says nothing else; nil for an answer or a refusal with fields.
    public var reason: String? { kind != .ok && fields == .null ? text ?? "" : nil }

    /// As the console and the control socket show it: the answer's lines (or `text`), with
    /// `json` its fields as one JSON object; a refusal's reason as `error: REASON`.
    public func rendered(json: Bool) -> String {
        if let reason { return "error: " + reason }
        if json, case .object = fields { return JSONText.encode(fields) }
        return text ?? JSONText.lines(fields)
    }
}
