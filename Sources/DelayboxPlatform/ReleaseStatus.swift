import DelayboxSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The package healer's last line about this box's release (`checking 1.3`, `1.3 playing`,
/// `rolled back: 1.3 failed its check, 1.2 plays again (41 s)`), which
/// deploy/debian/release-check writes to `/var/lib/delaybox-release/status`: the console's
/// and MQTT's `release`, and what a group's canary tells the others. Nil on a box not
/// installed from the package. `DELAYBOX_RELEASE_DIRECTORY` names another directory (the
/// tests' stand-in for the healer).
public enum ReleaseStatus {
    /// Longest line kept (bytes): the healer's lines are far shorter.
    static let limit = 300

    /// The healer's last line (`status`).
    public static func read() -> String? { line(of: "status") }

    /// The last release put back and why (`last-rollback`: `2026-11-30 04:12 1.3 failed its
    /// check (restarted by systemd); 1.2 was put back`), kept apart from the status line,
    /// which the next look replaces; nil: none yet.
    public static func lastRollback() -> String? { line(of: "last-rollback") }

    /// The first line of the healer's file `name`, at most `limit` bytes.
    private static func line(of name: String) -> String? {
        let directory = getenv("DELAYBOX_RELEASE_DIRECTORY").map { String(cString: $0) } ?? "/var/lib/delaybox-release"
        guard let file = try? FileDescriptor.open(directory + "/" + name, O_RDONLY) else { return nil }
        var bytes = [UInt8](repeating: 0, count: limit)
        guard let count = try? file.read(into: &bytes), count > 0 else { return nil }
        let line = String(decoding: bytes[..<count].prefix { $0 != 0x0A }, as: UTF8.self)
        return line.isEmpty ? nil : line
    }
}
