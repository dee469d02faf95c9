/// What `version` answers: Delaybox's version and its FFmpeg's (whose security updates are
/// Debian's, rebuilt into a release: docs/security.md).
/// A Codable answer: the console's lines in this order, or its JSON (`JSONValue`).
public struct VersionAnswer: Codable, Equatable, Sendable {
    public var version: String
    public var ffmpeg: String

    public init(version: String, ffmpeg: String) {
        self.version = version
        self.ffmpeg = ffmpeg
    }
}
