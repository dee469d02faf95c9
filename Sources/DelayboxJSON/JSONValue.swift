/// A value as the box's JSON holds it, from a Codable type (`init(encoding:)`): an object's
/// members in the order the type encodes them (its declaration order), so that one type
/// gives both the console's text — `key: value` lines in that order — and its JSON
/// (`JSONText`, keys sorted). Foundation's JSONEncoder keeps no order and writes numbers
/// its own way; this one writes them as the answers always have (`2`, not `2.0`).
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// An integer, as written.
    case integer(String)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Members in encoding order.
    case object([Member])

    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: JSONValue

        public init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// `value` encoded. A type whose encoding throws (none of the box's do) is `null`.
    public init(encoding value: some Encodable) {
        let node = Node()
        do { try value.encode(to: TreeEncoder(node: node, codingPath: [])) } catch { node.kind = .scalar(.null) }
        self = node.value
    }

    /// An object's members, empty for anything else.
    public var members: [Member] {
        if case .object(let members) = self { members } else { [] }
    }

    /// This value with every object's keys, at every depth, passed through `rename`
    /// (`snakeCased`: what a Codable type's names are in a file read by other tools).
    public func renamingKeys(_ rename: (String) -> String) -> JSONValue {
        switch self {
        case .array(let items): .array(items.map { $0.renamingKeys(rename) })
        case .object(let members):
            .object(members.map { .init(key: rename($0.key), value: $0.value.renamingKeys(rename)) })
        default: self
        }
    }

    /// `camelCase` as `camel_case` (`atS` → `at_s`, `firedErrorMs` → `fired_error_ms`).
    public static func snakeCased(_ key: String) -> String {
        var out = ""
        for character in key {
            if character.isUppercase, !out.isEmpty { out += "_" }
            out += character.lowercased()
        }
        return out
    }

    /// An object's member `key`; nil when there is none (or this is no object).
    public subscript(key: String) -> JSONValue? { members.first { $0.key == key }?.value }

    /// A number's value; nil for anything else.
    public var number: Double? {
        switch self {
        case .integer(let digits): Double(digits)
        case .double(let number): number
        default: nil
        }
    }

    /// A whole number that fits 64 bits; nil for anything else.
    public var integer: Int64? { if case .integer(let digits) = self { Int64(digits) } else { nil } }

    /// A string's text; nil for anything else.
    public var string: String? { if case .string(let text) = self { text } else { nil } }

    /// As a console's text shows a value: text bare, numbers as Swift prints them, lists
    /// joined by ", ", nothing for null.
    public var text: String {
        switch self {
        case .null: ""
        case .bool(let flag): flag ? "true" : "false"
        case .integer(let digits): digits
        case .double(let number): "\(number)"
        case .string(let text): text
        case .array(let items): items.map(\.text).joined(separator: ", ")
        case .object(let members): members.map { "\($0.key)=\($0.value.text)" }.joined(separator: " ")
        }
    }
}

/// A node of the tree being encoded; containers write into it by reference.
private final class Node {
    enum Kind {
        case unset
        case scalar(JSONValue)
        case object([(String, Node)])
        case array([Node])
    }
    var kind = Kind.unset

    var value: JSONValue {
        switch kind {
        case .unset: .null
        case .scalar(let value): value
        case .object(let members): .object(members.map { .init(key: $0.0, value: $0.1.value) })
        case .array(let items): .array(items.map(\.value))
        }
    }

    /// Makes this node an object (if it is not one yet) and adds an empty member for `key`.
    func member(_ key: String) -> Node {
        let child = Node()
        var members: [(String, Node)] = []
        if case .object(let existing) = kind { members = existing }
        members.removeAll { $0.0 == key }
        members.append((key, child))
        kind = .object(members)
        return child
    }

    /// Makes this node a list (if it is not one yet) and appends an empty item.
    func item() -> Node {
        let child = Node()
        var items: [Node] = []
        if case .array(let existing) = kind { items = existing }
        items.append(child)
        kind = .array(items)
        return child
    }

    var count: Int {
        if case .array(let items) = kind { items.count } else { 0 }
    }

    /// Stores `value`: a scalar the encoder knows at once, or what it encodes itself as.
    func store(_ value: some Encodable, codingPath: [any CodingKey]) throws {
        switch value {
        case let flag as Bool: kind = .scalar(.bool(flag))
        case let text as String: kind = .scalar(.string(text))
        case let number as Double: kind = .scalar(number.isFinite ? .double(number) : .null)
        case let number as Float: kind = .scalar(number.isFinite ? .double(Double(number)) : .null)
        case let number as any BinaryInteger: kind = .scalar(.integer("\(number)"))
        default: try value.encode(to: TreeEncoder(node: self, codingPath: codingPath))
        }
    }
}

private struct TreeEncoder: Encoder {
    let node: Node
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.kind {} else { node.kind = .object([]) }
        return KeyedEncodingContainer(Keyed(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.kind {} else { node.kind = .array([]) }
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }
}

private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: Node
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).kind = .scalar(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.member(key.stringValue).store(value, codingPath: codingPath + [key])
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.member("super"), codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        TreeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct Unkeyed: UnkeyedEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey]
    var count: Int { node.count }

    mutating func encodeNil() throws { node.item().kind = .scalar(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.item().store(value, codingPath: codingPath) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
        -> KeyedEncodingContainer<NestedKey>
    {
        TreeEncoder(node: node.item(), codingPath: codingPath).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        TreeEncoder(node: node.item(), codingPath: codingPath).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node.item(), codingPath: codingPath) }
}

private struct Single: SingleValueEncodingContainer {
    let node: Node
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.kind = .scalar(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try node.store(value, codingPath: codingPath) }
}
