import DelayboxJSON
import DelayboxUnits
import FoundationEssentials

/// A box's settings as one file an owner keeps (Box → Backup on the page, `backup` at the
/// console): the listener's settings (delay, volume, presets, channel, ads, the stations'
/// clocks), what the console saved (`config.yaml`: channels, MQTT's settings, the update
/// window) with its secrets left out, and whether the box looks for a release every night.
/// The box keeps its last few as well, so that the last change can be undone. Restored
/// onto any box of the same or a later release; read as strictly as a state file.
public struct BoxBackup: Sendable, Equatable, Codable {
    /// The file's format; a file of another format is refused.
    public static let format = 1

    public var format: Int
    /// The box it was taken on (its name on the network).
    public var box: String
    /// The release that took it.
    public var release: String
    /// When it was taken (Unix seconds).
    public var takenUnixS: Int64
    /// The settings as the state file keeps them.
    public var settings: Settings
    /// What the console saved (YAML, as `config.yaml` holds it, its secrets left out); ""
    /// when nothing was saved.
    public var config: String
    /// Whether the box looks for a new release every night.
    public var dailyUpdates: Bool
    /// The passwords, when the owner asked for them: sealed with their passphrase.
    public var passwords: SealedPasswords?

    enum CodingKeys: String, CodingKey {
        case format = "delaybox_backup", box, release
        case takenUnixS = "taken_unix_s"
        case settings, config
        case dailyUpdates = "daily_updates"
        case passwords
    }

    public init(
        box: String, release: String, takenUnixS: Int64, settings: Settings, config: String, dailyUpdates: Bool
    ) {
        format = Self.format
        (self.box, self.release, self.takenUnixS) = (box, release, takenUnixS)
        (self.settings, self.config, self.dailyUpdates) = (settings, config, dailyUpdates)
    }

    /// The file's text: one JSON object, a member a line.
    public var text: String { JSONText.pretty(JSONValue(encoding: self)) + "\n" }

    /// The largest backup read (bytes): a box's settings and a hundred channels fit many
    /// times over.
    public static let largestBytes = 60_000

    /// Reads a backup's text, checked as a state file is (`Settings.checked`), a delay above
    /// `maxDelay` brought down to it; or why it is no backup, in words an owner can act on.
    public static func read(_ text: String, maxDelay: TimeAmount) -> Result<BoxBackup, BackupProblem> {
        guard text.utf8.count <= largestBytes else {
            return .failure(BackupProblem("the file is \(text.utf8.count) bytes: a backup is at most \(largestBytes)"))
        }
        guard !text.allSatisfy(\.isWhitespace) else {
            return .failure(BackupProblem("the file is empty"))
        }
        var backup: BoxBackup
        do {
            backup = try JSONDecoder().decode(BoxBackup.self, from: Data(text.utf8))
        } catch let error as DecodingError {
            return .failure(BackupProblem(Self.describe(error, in: text)))
        } catch {
            return .failure(BackupProblem("this is not a Delaybox backup: \(error)"))
        }
        guard backup.format == format else {
            return .failure(
                BackupProblem("the backup has format \(backup.format); this release reads format \(format)"))
        }
        switch backup.settings.checked(maxDelay: maxDelay) {
        case .success(let checked): backup.settings = checked.settings
        case .failure(let problem): return .failure(BackupProblem("its settings: \(problem)"))
        }
        if let clocks = backup.settings.stationClocks,
            clocks.count > Settings.stationClocksKept || clocks.values.contains(where: { !$0.isFinite })
        {
            backup.settings.stationClocks = nil
        }
        return .success(backup)
    }

    /// A decoding error as where and what: the line of a syntax error, the key of a value
    /// of the wrong kind or a member missing.
    private static func describe(_ error: DecodingError, in text: String) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context.codingPath + [key])
            return "this is not a Delaybox backup: `\(at)` is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "the backup's `\(path(context.codingPath))` is not what it should be"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                let syntax = JSONSyntax.firstError(in: text).map { " at \($0)" } ?? ""
                return "this is not a Delaybox backup (not JSON\(syntax))"
            }
            return "the backup's `\(path(context.codingPath))` is not valid"
        @unknown default:
            return "this is not a Delaybox backup"
        }
    }

    /// Whether `other` holds the same choices: the settings but the volume and the stations'
    /// clocks (which change by the minute and are not an owner's), the saved config, the
    /// nightly updates.
    public func sameChoices(as other: BoxBackup) -> Bool {
        changes(from: other).isEmpty
    }

    /// What differs from `older` to this one, each in a few words (`delay 2.5 s → 3 s`);
    /// empty when the choices are the same (`sameChoices`).
    public func changes(from older: BoxBackup) -> [String] {
        let (was, now) = (older.settings, settings)
        var changes: [String] = []
        if was.delay != now.delay {
            changes.append("delay \(Self.seconds(was.delay.milliseconds)) → \(Self.seconds(now.delay.milliseconds))")
        }
        if was.channel != now.channel {
            changes.append("channel \(was.channel ?? "none") → \(now.channel ?? "none")")
        }
        for slot in Set(was.presets.keys).union(now.presets.keys).sorted() where was.presets[slot] != now.presets[slot]
        {
            let from = was.presets[slot].map(Self.seconds) ?? "empty"
            let to = now.presets[slot].map(Self.seconds) ?? "empty"
            changes.append("preset \(slot) \(from) → \(to)")
        }
        if was.adsEnabled != now.adsEnabled { changes.append("ads \(now.adsEnabled ? "on" : "off")") }
        if older.config != config { changes.append("saved config (channels, MQTT, update window)") }
        if older.dailyUpdates != dailyUpdates { changes.append("nightly updates \(dailyUpdates ? "on" : "off")") }
        return changes
    }

    /// Milliseconds as seconds to the tenth (`2.5 s`, `3 s`).
    private static func seconds(_ milliseconds: Int64) -> String {
        let tenths = (milliseconds + 50) / 100
        return JSONText.trimmed("\(tenths / 10).\(tenths % 10)") + " s"
    }
}

/// Why a file is not a backup this box restores.
public struct BackupProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
