import DelayboxConfig
import DelayboxJSON

/// The JSON the box wrote from dictionaries before its answers were Codable types (issue
/// 43): what the tests compare the typed answers with, field by field — the same rules as
/// `JSONText` (keys sorted, one line, `2` not `2.0`), written from `[String: Any]`, lists
/// and scalars.
public enum DictionaryJSON {
    public static func encode(_ value: Any) -> String {
        switch value {
        case let text as String: return JSONText.quoted(text)
        case let flag as Bool: return flag ? "true" : "false"
        case let number as any BinaryInteger: return "\(number)"
        case let number as Double: return number.isFinite ? JSONText.trimmed(number.description) : "null"
        case let object as [String: Any]:
            return "{"
                + object.keys.sorted().map { JSONText.quoted($0) + ":" + encode(object[$0]!) }.joined(separator: ",")
                + "}"
        case let list as [Any]: return "[" + list.map(encode).joined(separator: ",") + "]"
        default: return JSONText.quoted("\(value)")
        }
    }
}
