import DelayboxAnswers
import DelayboxConfig
import DelayboxConfigFile
import DelayboxConsole
import DelayboxEngine
import DelayboxLog
import DelayboxPlatform
import DelayboxState
import FoundationEssentials
import Synchronization

/// The box's backups (docs/web.md, "Backup and undo"), on the saver's thread: the settings
/// taken as one `BoxBackup` (the listener's settings, `config.yaml` without its secrets,
/// the nightly updates), a copy kept on the `BackupShelf` after each change, and a backup
/// restored or the last change undone — checked as the box would read it (its settings as
/// a state file, its config laid over this box's board and site files), written only when
/// all of it reads, the box restarted on it after.
public final class BoxBackupFiles: Sendable {
    /// The files a backup is made of.
    public struct Paths: Sendable {
        public var state: String
        public var consoleConfig: String?
        public var dailyUpdates: String?
        public var journalDirectory: String?
        public var board: String
        public var site: String?
        /// The page password's hash (`web-password`); nil: the box has no page.
        public var webPassword: String?

        public init(
            state: String, consoleConfig: String?, dailyUpdates: String?, journalDirectory: String?, board: String,
            site: String?, webPassword: String? = nil
        ) {
            (self.state, self.consoleConfig, self.dailyUpdates) = (state, consoleConfig, dailyUpdates)
            (self.journalDirectory, self.board, self.site, self.webPassword) = (
                journalDirectory, board, site, webPassword
            )
        }
    }

    /// How a backup's passwords are sealed: the key from a passphrase (yescrypt), the
    /// nonce's random bytes.
    public struct Sealing: Sendable {
        let derive: SealedPasswords.Derivation
        let random: @Sendable (Int) -> [UInt8]

        public init(derive: @escaping SealedPasswords.Derivation, random: @escaping @Sendable (Int) -> [UInt8]) {
            (self.derive, self.random) = (derive, random)
        }
    }

    public let paths: Paths
    public let shelf: BackupShelf
    /// Nil: this box takes and opens no passwords.
    let sealing: Sealing?
    /// The box's name and release, written into each backup.
    let box: String
    let release: String
    /// The wall clock (Unix ms), for the copies' names and the backups' dates.
    let nowUnixMs: @Sendable () -> Int64
    /// The settings last handed over (`keepCopy`), for a copy after a config change.
    private let last = Mutex<Settings?>(nil)
    /// `config.yaml` as last read and without its secrets: read again only when it changed.
    private let configCache = Mutex<(raw: [UInt8], text: String)?>(nil)
    private let logger = Logger(label: "delaybox.backup")

    /// A backup's settings are read with the largest delay any board allows; the config they
    /// are restored with brings them within its own `max_delay`.
    private static let readMaxDelay = TimeAmount.milliseconds(EngineConfiguration.maxDelayRange.upperBound)

    public init(
        paths: Paths, box: String, release: String, sealing: Sealing? = nil,
        nowUnixMs: @escaping @Sendable () -> Int64
    ) {
        (self.paths, self.box, self.release, self.nowUnixMs, self.sealing) = (paths, box, release, nowUnixMs, sealing)
        shelf = BackupShelf(
            directory: URL(fileURLWithPath: paths.state).deletingLastPathComponent().appendingPathComponent("backups")
                .path)
    }

    /// The box as one backup: `settings` with the saved config and the nightly updates; with
    /// a `passphrase`, its passwords too, sealed with it.
    public func take(_ settings: Settings, passphrase: String? = nil) throws -> BoxBackup {
        var backup = BoxBackup(
            box: box, release: release, takenUnixS: nowUnixMs() / 1_000, settings: settings,
            config: try savedConfig(), dailyUpdates: dailyUpdatesOn())
        if let passphrase { backup.passwords = try sealedPasswords(passphrase) }
        return backup
    }

    /// This box's passwords sealed with `passphrase`: the saved config's secrets and the page's.
    private func sealedPasswords(_ passphrase: String) throws -> SealedPasswords {
        guard let sealing else { throw BackupProblem("this box cannot seal passwords") }
        guard passphrase.count >= SealedPasswords.shortestPassphrase else {
            throw BackupProblem(
                "a passphrase of at least \(SealedPasswords.shortestPassphrase) characters seals the passwords")
        }
        var secrets: [String: String] = [:]
        if let found = savedDocument() {
            for key in found.secrets {
                if case .scalar(let value, _)? = found.saved.lookup(key).node { secrets[key] = value }
            }
        }
        let contents = SealedPasswords.Contents(
            config: secrets, page: paths.webPassword.flatMap { PasswordFile(path: $0).read() })
        guard
            let sealed = SealedPasswords.seal(
                contents, passphrase: passphrase, nonce: sealing.random(ChaChaPoly.nonceBytes), derive: sealing.derive)
        else { throw BackupProblem("the passwords could not be sealed (libcrypt)") }
        return sealed
    }

    /// Keeps a copy of the box with `settings` (nil: those last handed over) when an owner's
    /// choice changed; `settles`: a change (one soon after replaces it), not a start.
    public func keepCopy(of settings: Settings?, settles: Bool) {
        guard let settings = settings ?? last.withLock({ $0 }) else { return }
        last.withLock { $0 = settings }
        do {
            try shelf.keep(take(settings), nowUnixMs: nowUnixMs(), settles: settles, maxDelay: Self.readMaxDelay)
        } catch {
            logger.warning("no copy of the settings kept for undo: \(ErrorText.of(error))")
        }
    }

    /// Carries out `job` for a box whose settings are `current`; a backup restored through a
    /// network `door` sets only what that door may (nil: the box's own door).
    public func perform(_ job: BackupJob, door: NetworkDoorPolicy.Door? = nil, current: Settings) -> BackupOutcome {
        switch job {
        case .take(let passphrase):
            do { return .taken(try take(current, passphrase: passphrase)) } catch let problem as BackupProblem {
                return .failed(.refused, problem.description)
            } catch { return .failed(.unavailable, ErrorText.of(error)) }
        case .list:
            return .listed(shelf.copies(maxDelay: Self.readMaxDelay).map { ($0.madeUnixMs, $0.backup) })
        case .restore(let text, let passphrase):
            switch BoxBackup.read(text, maxDelay: Self.readMaxDelay) {
            case .failure(let problem): return .failed(.refused, "not restored, nothing changed: \(problem)")
            case .success(let backup):
                if let door, let refusal = refusal(backup.config, door: door) {
                    return .failed(.refused, "not restored, nothing changed: \(refusal)")
                }
                switch opened(backup, passphrase: passphrase) {
                case .failure(let problem): return .failed(.refused, "not restored, nothing changed: \(problem)")
                case .success(let passwords): return restore(backup, passwords: passwords, current: current, undo: nil)
                }
            }
        case .undo:
            guard let copy = shelf.beforeLastChange(maxDelay: Self.readMaxDelay) else {
                return .failed(.refused, "nothing to undo: no change since the box started keeping copies")
            }
            var backup = copy.backup
            // An undo takes back an owner's choice, not the volume now or what the box learned.
            (backup.settings.volume, backup.settings.stationClocks) = (current.volume, current.stationClocks)
            return restore(backup, passwords: nil, current: current, undo: copy)
        }
    }

    /// Why a backup's config changes more than `door` may (its first such key: a value this
    /// box already has is no change — but for a secret, whose "no change" would tell whoever
    /// guessed it that the guess was right); nil: it does not.
    private func refusal(_ config: String, door: NetworkDoorPolicy.Door) -> String? {
        var diagnostics: [ConfigDiagnostic] = []
        // Unreadable YAML is refused with its line by `check`.
        guard let document = ConfigFile.parse(config, file: "backup", emptyAllowed: true, diagnostics: &diagnostics)
        else { return nil }
        let now = ConfigFile.document(paths.board, overlays: [paths.site, paths.consoleConfig].compactMap { $0 })
            .document
        let secrets = now.map(BoardConfig.secretKeys) ?? []
        for leaf in document.leaves() {
            if !secrets.contains(leaf.path), case .scalar(leaf.value, _)? = now?.lookup(leaf.path).node { continue }
            if let refusal = NetworkDoorPolicy.restoreRefusal(key: leaf.path, value: leaf.value, door: door) {
                return "its config sets \(leaf.path): \(refusal)"
            }
        }
        return nil
    }

    /// The passwords `backup` holds, opened with `passphrase`; nil when it holds none or none
    /// was given (this box keeps its own).
    private func opened(_ backup: BoxBackup, passphrase: String?) -> Result<
        SealedPasswords.Contents?, BackupProblem
    > {
        guard let sealed = backup.passwords, let passphrase, !passphrase.isEmpty else { return .success(nil) }
        guard let sealing else { return .failure(BackupProblem("this box cannot open sealed passwords")) }
        return sealed.open(passphrase: passphrase, derive: sealing.derive).flatMap { contents in
            // A hash of the box's own cost only: one of another would have every login spend
            // what a stranger chose.
            if let page = contents.page, !PasswordFile.isHash(page) || !SealedPasswords.isSetting(ofHash: page) {
                return .failure(BackupProblem("its page password is not a password's hash as a box makes it"))
            }
            return .success(contents)
        }
    }

    /// Checks `backup` (with its opened `passwords`) as this box would read it, then writes
    /// it; `undo`: the copy it came from, whose newer copies go once it is written.
    private func restore(
        _ backup: BoxBackup, passwords: SealedPasswords.Contents?, current: Settings, undo: BackupShelf.Copy?
    ) -> BackupOutcome {
        let checked: (settings: Settings, config: String?, notes: [String])
        switch check(backup, passwords: passwords) {
        case .failure(let problem): return .failed(.refused, "not restored, nothing changed: \(problem)")
        case .success(let value): checked = value
        }
        var restored = backup
        restored.settings = checked.settings
        let before = try? take(current)
        do {
            if undo == nil { keepCopy(of: current, settles: false) }
            try write(restored, config: checked.config, pageHash: passwords?.page)
            if let undo { try shelf.forget(newerThan: undo, maxDelay: Self.readMaxDelay) }
        } catch {
            return .failed(.unavailable, "the backup could not be written: \(ErrorText.of(error))")
        }
        let changes = before.map { restored.changes(from: $0) } ?? []
        logger.notice(
            "\(undo == nil ? "backup of \(backup.box) restored" : "last change undone"): \(changes.joined(separator: ", ")); restarting"
        )
        return .restored(restored, undo: undo != nil, changes: changes, notes: checked.notes)
    }

    /// The backup's settings within its config's `max_delay`, and its config as this box
    /// writes it (its own secrets kept; nil: nothing saved) — or why the box would not read
    /// it, with the line.
    private func check(_ backup: BoxBackup, passwords: SealedPasswords.Contents?) -> Result<
        (settings: Settings, config: String?, notes: [String]), BackupProblem
    > {
        guard let consoleConfig = paths.consoleConfig else {
            return .failure(BackupProblem("this box keeps no saved config"))
        }
        let text: String?
        switch configText(backup.config, passwords: passwords?.config ?? [:]) {
        case .failure(let problem): return .failure(problem)
        case .success(let value): text = value
        }
        let trial = consoleConfig + ".restoring"
        defer { try? DurableFile.remove(trial) }
        do {
            try DurableFile.write(Array((text ?? "").utf8), to: trial, mode: 0o600)
        } catch {
            return .failure(BackupProblem("cannot check its config: \(ErrorText.of(error))"))
        }
        let loaded = ConfigFile.load(paths.board, overlays: [paths.site, trial].compactMap { $0 })
        guard let config = loaded.config else {
            let problems = loaded.diagnostics.filter { $0.severity == .error }.map {
                $0.location.file == trial
                    ? "its config, line \($0.location.line): \($0.message)" : "with this box's board: \($0)"
            }
            return .failure(BackupProblem(problems.joined(separator: "; ")))
        }
        guard case .success(let settings) = backup.settings.checked(maxDelay: config.defaults.maxDelay) else {
            return .failure(BackupProblem("its settings are out of range"))
        }
        var notes = settings.clamped
        if let channel = settings.settings.channel, !config.channels.channels.contains(where: { $0.name == channel }) {
            notes.append("its channel \(channel) is not among this box's channels: the first one plays")
        }
        if paths.dailyUpdates == nil, !backup.dailyUpdates {
            notes.append("this box has no nightly updates to switch off")
        }
        if backup.passwords != nil, passwords == nil {
            notes.append("its passwords are sealed and no passphrase was given: this box keeps its own")
        }
        if let mqtt = config.mqtt, mqtt.username != nil, mqtt.password == nil {
            notes.append(
                "its broker (\(mqtt.brokerURL)) wants a password the backup does not hold: join the venue again "
                    + "(Box → Venue), or restore a backup with its passwords")
        }
        if passwords?.page != nil, let path = paths.webPassword {
            notes.append(
                PasswordFile(path: path).read() == nil
                    ? "the page's password is the backup's: log in with that one"
                    : "the page's password stays this box's (changed only with the current one)")
        }
        return .success((settings.settings, text, notes))
    }

    /// `backup`'s config with this box's own secrets laid over it (its text holds none), then
    /// the backup's sealed `passwords` (dotted keys), as `config.yaml` is written; nil when
    /// there is nothing to save. A sealed key that is no password of that config is refused.
    private func configText(_ backupConfig: String, passwords: [String: String]) -> Result<String?, BackupProblem> {
        var diagnostics: [ConfigDiagnostic] = []
        let fromBackup =
            backupConfig.isEmpty
            ? nil : ConfigFile.parse(backupConfig, file: "backup", emptyAllowed: true, diagnostics: &diagnostics)
        guard diagnostics.isEmpty else { return .success(backupConfig) }
        var document = fromBackup ?? .mapping([], SourceLocation(file: "backup", line: 1, column: 1))
        if let found = savedDocument() {
            for key in found.secrets {
                if let node = found.saved.lookup(key).node, let setting = document.override(setting: key, to: node) {
                    document = document.merged(with: setting)
                }
            }
        }
        let origin = SourceLocation(file: "backup", line: 1, column: 1)
        for (key, value) in passwords.sorted(by: { $0.key < $1.key }) {
            guard let setting = document.override(setting: key, to: .scalar(value, origin)) else {
                return .failure(BackupProblem("its passwords name \(key.prefix(80)), which is no password"))
            }
            document = document.merged(with: setting)
        }
        // Secrets as the whole config reads them: the board and site files under the backup's.
        let under = ConfigFile.document(paths.board, overlays: [paths.site].compactMap { $0 }).document
        let secrets = BoardConfig.secretKeys(in: under.map { $0.merged(with: document) } ?? document)
        if let stray = passwords.keys.sorted().first(where: { !secrets.contains($0) }) {
            return .failure(BackupProblem("its passwords name \(stray.prefix(80)), which is no password"))
        }
        guard case .mapping(let entries, _) = document, !entries.isEmpty else { return .success(nil) }
        return .success(Self.savedHeader + ConfigFile.yaml(document))
    }

    /// What `config.yaml` starts with when a restore wrote it.
    private static let savedHeader =
        "# Restored from a backup; the console's `config save` adds to it. Delete it to go back.\n"

    /// `config.yaml` as parsed, and the secrets it holds (as the whole config reads them);
    /// nil when there is none, or it does not read.
    private func savedDocument() -> (saved: ConfigNode, secrets: Set<String>)? {
        var diagnostics: [ConfigDiagnostic] = []
        guard let path = paths.consoleConfig, let text = try? String(contentsOfFile: path, encoding: .utf8),
            let saved = ConfigFile.parse(text, file: path, emptyAllowed: true, diagnostics: &diagnostics)
        else { return nil }
        let whole = ConfigFile.document(paths.board, overlays: [paths.site, path].compactMap { $0 }).document
        return (saved, whole.map(BoardConfig.secretKeys) ?? [])
    }

    /// `config.yaml` without its secrets ("" when there is none).
    private func savedConfig() throws -> String {
        guard let path = paths.consoleConfig, let raw = FileManager.default.contents(atPath: path) else { return "" }
        let bytes = [UInt8](raw)
        if let cached = configCache.withLock({ $0 }), cached.raw == bytes { return cached.text }
        guard let found = savedDocument() else {
            throw BackupProblem("\(path) does not read: fix or delete it before a backup")
        }
        let text = ConfigFile.yaml(found.saved.removing(paths: found.secrets))
        configCache.withLock { $0 = (bytes, text) }
        return text
    }

    private func dailyUpdatesOn() -> Bool {
        guard let path = paths.dailyUpdates, let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            return true
        }
        return !text.hasPrefix("off")
    }

    /// Writes the backup's files, durably: the saved config (or none), the nightly updates,
    /// the settings last (what the box starts from); the delay journal goes, or the restart
    /// would resume the delay it held.
    private func write(_ backup: BoxBackup, config: String?, pageHash: String?) throws {
        if let path = paths.consoleConfig {
            if let config {
                try DurableFile.write(Array(config.utf8), to: path, mode: 0o600)
            } else {
                try DurableFile.remove(path)
            }
        }
        if let path = paths.dailyUpdates {
            try DurableFile.write(Array((backup.dailyUpdates ? "on\n" : "off\n").utf8), to: path, mode: 0o644)
        }
        // A box with a page password keeps it: a session is no way round "Change password"
        // asking for the current one. A new card (none yet) takes the backup's.
        if let pageHash, let path = paths.webPassword, PasswordFile(path: path).read() == nil {
            try PasswordFile(path: path).store(pageHash)
        }
        try SettingsFile(path: paths.state).save(backup.settings)
        for file in FactoryReset.journalFiles(in: paths.journalDirectory) { try DurableFile.remove(file) }
    }
}
