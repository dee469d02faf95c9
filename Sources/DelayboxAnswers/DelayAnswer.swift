/// What `delay` without an argument answers: the delay set, and the range that can be set
/// now (ms).
/// A Codable answer: the console's lines in this order, or its JSON (`JSONValue`).
public struct DelayAnswer: Codable, Equatable, Sendable {
    public var delayMs: Int64
    public var availableDelayMs: Int64
    public var minimumDelayMs: Int64

    enum CodingKeys: String, CodingKey {
        case delayMs = "delay_ms"
        case availableDelayMs = "available_delay_ms"
        case minimumDelayMs = "minimum_delay_ms"
    }

    public init(delayMs: Int64, availableDelayMs: Int64, minimumDelayMs: Int64) {
        self.delayMs = delayMs
        self.availableDelayMs = availableDelayMs
        self.minimumDelayMs = minimumDelayMs
    }
}
