/// What `channel next` and `channel NAME` answer: the channel now playing.
/// A Codable answer: the console's lines in this order, or its JSON (`JSONValue`).
public struct ChannelAnswer: Codable, Equatable, Sendable {
    public var result: String
    public var channel: String

    public init(result: String, channel: String) {
        self.result = result
        self.channel = channel
    }
}
