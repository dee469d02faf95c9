import DelayboxUnits

/// What `delay` without an argument answers: the delay set, and the range that can be set
/// now (in ms on the wire).
/// A Codable answer: the console's lines in this order, or its JSON (`JSONValue`).
public struct DelayAnswer: Codable, Equatable, Sendable {
    @InMilliseconds public var delay: TimeAmount
    @InMilliseconds public var availableDelay: TimeAmount
    @InMilliseconds public var minimumDelay: TimeAmount

    enum CodingKeys: String, CodingKey {
        case delay = "delay_ms"
        case availableDelay = "available_delay_ms"
        case minimumDelay = "minimum_delay_ms"
    }

    public init(delay: TimeAmount, availableDelay: TimeAmount, minimumDelay: TimeAmount) {
        self.delay = delay
        self.availableDelay = availableDelay
        self.minimumDelay = minimumDelay
    }
}
