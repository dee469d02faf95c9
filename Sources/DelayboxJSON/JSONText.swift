/// JSON text for everything the box writes in JSON — the console's answers, `play --json`,
/// MQTT's and the page's payloads: a Codable type's fields (`JSONValue`), objects with their
/// keys sorted, on one line, a whole number without `.0`, a number JSON cannot hold as null.
public enum JSONText {
    /// `value` as JSON: objects with their keys sorted.
    public static func encode(_ value: JSONValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    /// `value` as JSON for a person to read and diff (the state file, a simulation's
    /// report): keys sorted, one member or item a line, indented by two spaces, `"key" :
    /// value` as Foundation's pretty printer wrote the state file before (files and the
    /// tests that read them stay the same).
    public static func pretty(_ value: JSONValue) -> String {
        var out = ""
        write(value, to: &out, indent: "")
        return out
    }

    private static func write(_ value: JSONValue, to out: inout String, indent: String) {
        let inner = indent + "  "
        switch value {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += (index > 0 ? ",\n" : "") + inner
                write(item, to: &out, indent: inner)
            }
            out += "\n" + indent + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                out += (index > 0 ? ",\n" : "") + inner
                quote(member.key, to: &out)
                out += " : "
                write(member.value, to: &out, indent: inner)
            }
            out += "\n" + indent + "}"
        default:
            write(value, to: &out)
        }
    }

    /// A Codable answer as JSON (`JSONValue(encoding:)`, then `encode(_:)`).
    public static func encode(answer: some Encodable) -> String { encode(JSONValue(encoding: answer)) }

    /// A Codable answer as a door gives it: its members' `key: value` lines in declaration
    /// order (an absent optional left out), or (`json`) one JSON object.
    public static func console(_ answer: some Encodable, json: Bool) -> String {
        let value = JSONValue(encoding: answer)
        return json ? encode(value) : lines(value)
    }

    /// An object's members as the console shows them: `key: value` lines in their order.
    public static func lines(_ value: JSONValue) -> String {
        value.members.map { "\($0.key): \($0.value.text)" }.joined(separator: "\n")
    }

    private static func write(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let flag): out += flag ? "true" : "false"
        case .integer(let digits): out += digits
        case .double(let number): out += number.isFinite ? trimmed(number.description) : "null"
        case .string(let text): quote(text, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out += "," }
                quote(member.key, to: &out)
                out += ":"
                write(member.value, to: &out)
            }
            out += "}"
        }
    }

    /// A whole number as JSON writes it: `2`, not `2.0`.
    public static func trimmed(_ text: String) -> String { text.hasSuffix(".0") ? String(text.dropLast(2)) : text }

    /// `text` as a JSON string, quotes included (also a YAML double-quoted scalar: JSON's
    /// escapes are YAML's).
    public static func quoted(_ text: String) -> String {
        var out = ""
        quote(text, to: &out)
        return out
    }

    private static func quote(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
