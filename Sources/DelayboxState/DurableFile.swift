import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A small file written so that a power cut at any moment leaves the old contents or the
/// new, never a mix: a temporary file beside it, fsync, rename over the old one, fsync of
/// the directory (so the rename itself is on disk). The state file and the web password's
/// hash are written so.
public enum DurableFile {
    /// Writes `bytes` to `path` with permissions `mode`, atomically and durably.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t) throws {
        let temporary = "\(path).tmp-\(getpid())"
        let file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard file >= 0 else { throw SettingsFileError("cannot create \(temporary)", errno) }
        let written = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
        let synced = fsync(file) == 0
        close(file)
        guard written == bytes.count, synced else {
            unlink(temporary)
            throw SettingsFileError("cannot write \(temporary)", errno)
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw SettingsFileError("cannot rename \(temporary) to \(path)", errno)
        }
        let folder = open(URL(fileURLWithPath: path).deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }
}
