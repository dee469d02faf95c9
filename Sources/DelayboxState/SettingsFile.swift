import DelayboxConfig
import DelayboxSystem
import DelayboxUnits
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// The state file (`/var/lib/delaybox/state.json`): written so that a power cut at any
/// moment leaves the old settings or the new, never a mix — a temporary file beside it,
/// fsync, rename over the old one, fsync of the directory (so the rename itself is on
/// disk).
public struct SettingsFile: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    /// The saved settings; when the file is missing or unusable, `fallback` and why.
    /// Temporary files that a power cut left behind are removed.
    public func load(fallback: Settings, maxDelay: TimeAmount) -> (settings: Settings, problem: String?) {
        removeLeftovers()
        guard FileManager.default.fileExists(atPath: path) else {
            return (fallback, "no state file yet at \(path): defaults")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return (fallback, "cannot read \(path): defaults")
        }
        switch Settings.read(data, maxDelay: maxDelay) {
        case .success(let read):
            return (
                read.settings,
                read.clamped.isEmpty ? nil : "\(path): " + read.clamped.joined(separator: "; ") + "; the rest as saved"
            )
        case .failure(let problem): return (fallback, "\(path): \(problem); using defaults")
        }
    }

    /// Removes `PATH.tmp-*` files of writers that died before their rename.
    private func removeLeftovers() {
        let prefix = URL(fileURLWithPath: path).lastPathComponent + ".tmp-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasPrefix(prefix)
        {
            unlink(directory + "/" + name)
        }
    }

    /// The directory the file is in.
    private var directory: String { URL(fileURLWithPath: path).deletingLastPathComponent().path }

    /// Writes `settings` atomically and durably (`DurableFile`).
    public func save(_ settings: Settings) throws {
        try DurableFile.write(Array(settings.encoded()), to: path, mode: 0o644)
    }
}

public struct SettingsFileError: Error, CustomStringConvertible {
    public var description: String
    init(_ what: String, _ code: Int32) { description = "\(what): \(Errno(code))" }
}
