import DelayboxConfig

/// A file a console request writes, durably (fsync, rename, fsync of the folder), on a
/// thread that may wait for the disk — never the playout's: its reply waits for the
/// outcome (`ConsoleEffect.write`).
public struct FileWrite: Equatable, Sendable {
    /// What the file holds.
    public enum Content: Equatable, Sendable {
        /// These bytes.
        case bytes([UInt8])
        /// `config save`: these changes laid over what the file already holds, read there
        /// (parsing YAML is no work for the playout thread either).
        case configOverlay(ConfigNode)
    }

    /// What the write is for, and so what its reply says.
    public enum Purpose: Equatable, Sendable {
        /// `config save`: once written, the config files are read again and the reply names the file.
        case configSave
        /// A request left for root's helper in the service's runtime directory (`update`,
        /// `board use`): `what` is asked for (a refusal's words), `done` the reply once it is there.
        case request(what: String, done: ResultAnswer)
        /// `update daily on|off`: the nightly look switched (the package's updater reads the
        /// file); once written, it is the box's setting.
        case dailyUpdates(on: Bool)
    }

    public var path: String
    public var content: Content
    /// The file's permissions (e.g. 0o644).
    public var mode: UInt32
    public var purpose: Purpose

    public init(path: String, content: Content, mode: UInt32, purpose: Purpose) {
        (self.path, self.content, self.mode, self.purpose) = (path, content, mode, purpose)
    }
}
