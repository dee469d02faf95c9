/// What `remote` answers: the receiver's device (or why none is open), the presses so far,
/// and the last keys with what they did. A Codable answer: the console's lines in this
/// order, or its JSON.
public struct RemoteAnswer: Codable, Equatable, Sendable {
    public var device: String
    /// The presses since the start, as text (as the answer always gave it).
    public var presses: String
    /// The last keys, newest first: `NAME (ACTION) N.N s ago`, ", " between them.
    public var lastKeys: String

    enum CodingKeys: String, CodingKey {
        case device, presses
        case lastKeys = "last_keys"
    }
}
