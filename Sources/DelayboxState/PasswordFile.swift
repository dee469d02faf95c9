import DelayboxConfig

#if canImport(Glibc)
    import Glibc
#endif

/// The web password's hash (`web-password` beside the state file): one line as
/// /etc/shadow keeps it (`$y$…`), readable by the box's user alone. The password itself
/// is never written anywhere.
public struct PasswordFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The hash kept, or nil when there is none (no file, or not a crypt(3) hash).
    public func read() -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let hash = line.hasSuffix("\n") ? String(line.dropLast()) : line
        return Self.isHash(hash) ? hash : nil
    }

    /// Keeps `hash` atomically and durably, mode 0600.
    public func store(_ hash: String) throws {
        guard Self.isHash(hash) else { throw SettingsFileError("not a password hash", EINVAL) }
        try DurableFile.write(Array((hash + "\n").utf8), to: path, mode: 0o600)
    }

    /// A crypt(3) hash: `$id$…`, of the characters crypt uses.
    public static func isHash(_ text: String) -> Bool {
        text.hasPrefix("$") && text.utf8.count < 256
            && text.utf8.allSatisfy { $0 == UInt8(ascii: "$") || CryptText.isCharacter($0) }
    }
}
