/// A duration that a file or a wire message carries as a whole number of milliseconds
/// (`"delayMs": 5000` in the state file, `"delay_ms"` in an answer): the property is a
/// `TimeAmount`, only its encoding is in ms, so the format stays as it was. A number no
/// `TimeAmount` holds (beyond ±292 years: a stranger's file) is refused when decoded, not
/// trapped on.
@propertyWrapper
public struct InMilliseconds: Codable, Sendable, Hashable {
    public var wrappedValue: TimeAmount

    public init(wrappedValue: TimeAmount) { self.wrappedValue = wrappedValue }

    /// The largest number of milliseconds a `TimeAmount` holds, either way.
    static let limit = Int64.max / Instant.nanosecondsPerMillisecond

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let milliseconds = try container.decode(Int64.self)
        guard (-Self.limit...Self.limit).contains(milliseconds) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\(milliseconds) ms is longer than any duration")
        }
        wrappedValue = .milliseconds(milliseconds)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.milliseconds)
    }
}
