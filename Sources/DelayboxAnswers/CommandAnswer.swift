import DelayboxUnits

/// What a command that changes the box answers (`delay`, `volume`, `pause`, `preset`, …):
/// how it went (`ok`, `limit reached`, `reaching 30.0 s in 24.7 s`, `refused: …`) and the
/// delay, volume and state after it.
/// A Codable answer: the console's lines in this order, or its JSON (`JSONValue`).
public struct CommandAnswer: Codable, Equatable, Sendable {
    public var result: String
    @InMilliseconds public var delay: TimeAmount
    public var volume: Int
    public var state: String
    public var buildingDelayMs: Int64?

    enum CodingKeys: String, CodingKey {
        case result
        case delay = "delay_ms"
        case volume
        case state
        case buildingDelayMs = "building_delay_ms"
    }

    public init(result: String, delay: TimeAmount, volume: Int, state: String, buildingDelayMs: Int64? = nil) {
        self.result = result
        self.delay = delay
        self.volume = volume
        self.state = state
        self.buildingDelayMs = buildingDelayMs
    }
}
