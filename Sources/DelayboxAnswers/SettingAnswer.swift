/// What `ads` and `log level` answer: whether ads play (`on`, `off`), the journal's level.
/// A Codable answer: the console's line, or its JSON (`JSONValue`); each has one field.
public struct SettingAnswer: Codable, Equatable, Sendable {
    public var ads: String?
    public var logLevel: String?
    /// Whether the box looks for a new release every night: `on`, `off`.
    public var dailyUpdates: String?

    enum CodingKeys: String, CodingKey {
        case ads
        case logLevel = "log_level"
        case dailyUpdates = "daily_updates"
    }

    public init(ads: String? = nil, logLevel: String? = nil, dailyUpdates: String? = nil) {
        self.ads = ads
        self.logLevel = logLevel
        self.dailyUpdates = dailyUpdates
    }
}
