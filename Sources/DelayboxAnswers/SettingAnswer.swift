/// What `ads` and `log level` answer: whether ads play (`on`, `off`), the journal's level.
/// A Codable answer: the console's line, or its JSON (`JSONValue`); each has one field.
public struct SettingAnswer: Codable, Equatable, Sendable {
    public var ads: String?
    public var logLevel: String?

    enum CodingKeys: String, CodingKey {
        case ads
        case logLevel = "log_level"
    }

    public init(ads: String? = nil, logLevel: String? = nil) {
        self.ads = ads
        self.logLevel = logLevel
    }
}
