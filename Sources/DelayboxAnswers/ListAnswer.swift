/// What the console's list commands answer in JSON, one object holding the list: `channels`
/// (the names, and the one `selected`), `events` (the recent ones, as the console prints
/// them), `log` (`lines`); as text each is a line per item. Only the list's own fields are
/// present.
public struct ListAnswer: Codable, Equatable, Sendable {
    public var channels: [String]?
    public var selected: String?
    public var events: [String]?
    public var lines: [String]?

    public init(channels: [String]? = nil, selected: String? = nil, events: [String]? = nil, lines: [String]? = nil) {
        self.channels = channels
        self.selected = selected
        self.events = events
        self.lines = lines
    }
}
