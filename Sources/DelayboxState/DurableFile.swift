import DelayboxSystem
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A small file written so that a power cut at any moment leaves the old contents or the
/// new, never a mix: a temporary file beside it, written whole and synced, renamed over the
/// old one, then its directory synced (so the rename itself is on disk). The state file,
/// the web password's hash, `config save`'s file and the requests to root's helpers are
/// written so. Writes go through `FileDescriptor`: a short write is followed by the rest,
/// a signal's EINTR is retried, each failure keeps the errno it came with.
public enum DurableFile {
    /// Writes `bytes` to `path` with permissions `mode`, atomically and durably; `synced`
    /// false: atomically only (the old file or the new, but after a power cut possibly
    /// neither) — for a file that is a convenience, never worth a slow card's fsyncs.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t, synced: Bool = true) throws {
        let temporary = "\(path).tmp-\(getpid())"
        let file: FileDescriptor
        do throws(Errno) {
            file = try FileDescriptor.open(temporary, O_WRONLY | O_CREAT | O_TRUNC, permissions: mode)
        } catch {
            throw SettingsFileError("cannot create \(temporary)", error.code)
        }
        do throws(Errno) {
            try file.writeAll(bytes, at: 0)
            if synced { try file.sync() }
            try file.close()
        } catch {
            try? file.close()
            unlink(temporary)
            throw SettingsFileError("cannot write \(temporary)", error.code)
        }
        guard rename(temporary, path) == 0 else {
            let failure = errno
            unlink(temporary)
            throw SettingsFileError("cannot rename \(temporary) to \(path)", failure)
        }
        // The rename is on disk only once its directory is: a failure here is one (the file
        // is in place, and whoever saves tries again), not something to pass over.
        if synced { try syncDirectory(of: path, "the rename to \(path)") }
    }

    /// Removes `path` (gone already is done), durably: its directory synced.
    public static func remove(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw SettingsFileError("cannot remove \(path)", errno)
        }
        try syncDirectory(of: path, "the removal of \(path)")
    }

    /// Syncs the directory holding `path`, where `change` happened.
    private static func syncDirectory(of path: String, _ change: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do throws(Errno) {
            try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY).sync()
        } catch {
            throw SettingsFileError("cannot sync \(directory): \(change) may not survive a power cut", error.code)
        }
    }
}
