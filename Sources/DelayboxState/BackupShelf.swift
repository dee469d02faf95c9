import DelayboxConfig
import DelayboxUnits
import FoundationEssentials

/// The copies of a box's settings it keeps of itself (`backups/` beside the state file),
/// so that the owner's last change can be undone: a copy after each change, the newest the
/// box as it is. Changes in quick succession (a knob turned over a few seconds, a form's
/// fields saved one by one) are one change: a copy younger than `settlingS` is replaced.
/// At most `kept` copies, named by when they were taken. Written whole (a temporary file
/// renamed) but not synced: a copy is a convenience, two fsyncs after every change would
/// hold a slow SD card's saver up (SlowDiskTests), and one a power cut tore is left out
/// when read.
public struct BackupShelf: Sendable {
    /// The copies kept.
    public static let kept = 6
    /// Changes closer together than this are one change (s).
    public static let settlingS: Int64 = 30

    /// The directory of the copies.
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// A copy on the shelf: its file, when it was made (Unix ms), whether a change soon after
    /// replaces it, and what it holds.
    public struct Copy: Sendable, Equatable {
        public var path: String
        public var madeUnixMs: Int64
        public var settles: Bool
        public var backup: BoxBackup
    }

    /// The copies, newest first; a file that no longer reads is left out (and removed).
    public func copies(maxDelay: TimeAmount) -> [Copy] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var copies: [Copy] = []
        for name in names where name.hasPrefix("backup-") && name.hasSuffix(".json") {
            let stem = name.dropFirst("backup-".count).dropLast(".json".count)
            let settles = stem.hasSuffix(Self.changeMark)
            guard let made = Int64(settles ? stem.dropLast(Self.changeMark.count) : stem) else { continue }
            let path = directory + "/" + name
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                case .success(let backup) = BoxBackup.read(text, maxDelay: maxDelay)
            else {
                try? FileManager.default.removeItem(atPath: path)
                continue
            }
            copies.append(Copy(path: path, madeUnixMs: made, settles: settles, backup: backup))
        }
        return copies.sorted { $0.madeUnixMs > $1.madeUnixMs }
    }

    /// The name's mark of a copy a change soon after replaces.
    private static let changeMark = "-change"

    /// Keeps `backup` as the box now, made at `nowUnixMs`, when its choices differ from the
    /// newest copy's. A change (`settles`) replaces the newest copy when that is a change
    /// younger than `settlingS`; a start, a restore or an undo never replaces and is never
    /// replaced: what came before them stays to go back to. True when the shelf changed.
    @discardableResult
    public func keep(_ backup: BoxBackup, nowUnixMs: Int64, settles: Bool = true, maxDelay: TimeAmount) throws -> Bool {
        let copies = copies(maxDelay: maxDelay)
        if let newest = copies.first, newest.backup.sameChoices(as: backup) { return false }
        var (older, stale) = (copies[...], [String]())
        if settles, let newest = copies.first, newest.settles, nowUnixMs - newest.madeUnixMs < Self.settlingS * 1_000 {
            stale.append(newest.path)
            older = older.dropFirst()
        }
        // Changed and changed back within the settling time: the copy before is the box again.
        if !stale.isEmpty, let before = older.first, before.backup.sameChoices(as: backup) {
            for path in stale { try? FileManager.default.removeItem(atPath: path) }
            return true
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let made = max(nowUnixMs, (copies.first?.madeUnixMs ?? 0) + 1)
        let name = "backup-\(made)\(settles ? Self.changeMark : "").json"
        try DurableFile.write(Array(backup.text.utf8), to: directory + "/" + name, mode: 0o600, synced: false)
        for path in stale + older.dropFirst(Self.kept - 1).map(\.path) {
            try? FileManager.default.removeItem(atPath: path)
        }
        return true
    }

    /// The copy before the last change (the second newest), and the copies newer than it
    /// removed once it is restored (`forget(newerThan:)`); nil when there is nothing to undo.
    public func beforeLastChange(maxDelay: TimeAmount) -> Copy? {
        let copies = copies(maxDelay: maxDelay)
        return copies.count > 1 ? copies[1] : nil
    }

    /// Removes the copies newer than `copy`: after an undo it is the newest again.
    public func forget(newerThan copy: Copy, maxDelay: TimeAmount) throws {
        for newer in copies(maxDelay: maxDelay) where newer.madeUnixMs > copy.madeUnixMs {
            try FileManager.default.removeItem(atPath: newer.path)
        }
    }
}
