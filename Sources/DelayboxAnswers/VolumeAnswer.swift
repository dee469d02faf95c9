/// What `volume` without an argument answers.
/// A Codable answer: the console's lines in this order, or its JSON (`JSONValue`).
public struct VolumeAnswer: Codable, Equatable, Sendable {
    public var volume: Int
    public var muted: Bool

    public init(volume: Int, muted: Bool) {
        self.volume = volume
        self.muted = muted
    }
}
