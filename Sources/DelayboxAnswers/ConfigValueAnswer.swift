/// What `config get KEY` answers: the value in force and where it was written (`FILE:LINE`).
/// A Codable answer: the console's lines in this order, or its JSON (`JSONValue`).
public struct ConfigValueAnswer: Codable, Equatable, Sendable {
    public var key: String
    public var value: String
    public var from: String

    public init(key: String, value: String, from: String) {
        self.key = key
        self.value = value
        self.from = from
    }
}
