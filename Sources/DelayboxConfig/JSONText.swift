/// JSON text for the console's and the log's answers: objects with their keys sorted, on
/// one line. Values are what those answers hold: text, integers, floating point, Booleans,
/// lists and objects of them, and nil as null — a Codable answer's (`JSONValue`), or a
/// dictionary's for the answers not typed yet.
public enum JSONText {
    /// `value` as JSON; an unknown kind of value is written as its description (a string).
    public static func encode(_ value: Any?) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    private static func write(_ value: Any?, to out: inout String) {
        switch value {
        case nil: out += "null"
        case let text as String: quote(text, to: &out)
        case let text as Substring: quote(String(text), to: &out)
        case let flag as Bool: out += flag ? "true" : "false"
        case let number as any BinaryInteger: out += "\(number)"
        case let number as Double: out += number.isFinite ? trimmed(number.description) : "null"
        case let number as Float: out += number.isFinite ? trimmed(number.description) : "null"
        case let object as [String: Any]:
            out += "{"
            for (index, key) in object.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                quote(key, to: &out)
                out += ":"
                write(object[key]!, to: &out)
            }
            out += "}"
        case let list as [Any]:
            out += "["
            for (index, item) in list.enumerated() {
                if index > 0 { out += "," }
                write(item, to: &out)
            }
            out += "]"
        case let other?:
            // An optional inside `Any` (a dictionary's `Int?`) that is nil: null.
            let mirror = Mirror(reflecting: other)
            if mirror.displayStyle == .optional, mirror.children.isEmpty {
                out += "null"
            } else {
                quote("\(other)", to: &out)
            }
        }
    }

    /// `value` as JSON: objects with their keys sorted, as `encode(_:)` writes dictionaries.
    public static func encode(_ value: JSONValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    /// A Codable answer as JSON (`JSONValue(encoding:)`, then `encode(_:)`).
    public static func encode(answer: some Encodable) -> String { encode(JSONValue(encoding: answer)) }

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
    private static func trimmed(_ text: String) -> String { text.hasSuffix(".0") ? String(text.dropLast(2)) : text }

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
