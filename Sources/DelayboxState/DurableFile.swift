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
        // Each failure's errno is taken where it happened: close and unlink would change it.
        let written = bytes.withUnsafeBytes { Glibc.write(file, $0.baseAddress, $0.count) }
        var failure: Int32? = written < 0 ? errno : written < bytes.count ? ENOSPC : nil
        if failure == nil, fsync(file) != 0 { failure = errno }
        close(file)
        if let failure {
            unlink(temporary)
            throw SettingsFileError("cannot write \(temporary)", failure)
        }
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw SettingsFileError("cannot rename \(temporary) to \(path)", failure)
        }
        // The rename is on disk only once its directory is: a failure here is one (the file
        // is in place, and whoever saves tries again), not something to pass over.
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw SettingsFileError("cannot open \(directory) to make the rename durable", errno) }
        let folderSynced = fsync(folder) == 0 ? nil : errno
        close(folder)
        if let folderSynced {
            throw SettingsFileError(
                "cannot sync \(directory): the rename to \(path) may not survive a power cut", folderSynced)
        }
    }
}
