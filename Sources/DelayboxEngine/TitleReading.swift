/// What one stream title says (`StreamEventConvention.read(title:)`): its events, and the
/// tags of ours it carried that were refused, each with the reason an installer reads.
public struct TitleReading: Sendable, Equatable {
    /// A tag refused: its text (at most 200 characters) and what was wrong with it.
    public struct Refusal: Sendable, Equatable, Hashable, CustomStringConvertible {
        public var tag: String
        public var reason: String

        public init(tag: String, reason: String) {
            self.tag = tag
            self.reason = reason
        }

        public var description: String { "\(tag): \(reason)" }
    }

    public var events: [StreamEvent]
    public var refusals: [Refusal]
}
