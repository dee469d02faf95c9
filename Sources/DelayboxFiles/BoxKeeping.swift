import DelayboxAnswers
import DelayboxConfig
import DelayboxConsole
import DelayboxDoors
import DelayboxLog
import DelayboxState

/// What the playout keeps on disk and when it must not: the listener's settings saved on
/// the saver's thread — not by `play`, not while a factory reset removes them or a backup's
/// own are written — the reset and a backup job begun and finished there, and why the box
/// is then to be started again. Used on the playout thread only.
public final class BoxKeeping {
    /// Whether the settings are saved now, and what holds them back.
    private enum Phase {
        case saving
        /// `delaybox play`: no state file.
        case notKept
        /// A factory reset is removing the files.
        case resetting
        /// A restore or an undo is writing the backup's files.
        case restoring
    }

    /// Saves the settings off the playout thread, and does its other file work.
    public let saver: SettingsSaver
    /// Files written and read on the saver's thread, their outcomes taken by the playout.
    public let files: FileErrands
    private let factoryReset: FactoryReset?
    private var phase: Phase
    /// Why the root stops the box to start it again (a factory reset done, a backup
    /// restored); nil: it plays on.
    public private(set) var restartReason: String?
    private let logger = Logger(label: "delaybox.appliance")

    /// - Parameters:
    ///   - settingsFile: where the settings are saved; nil: nowhere (`play`).
    ///   - backups: the copies kept after each change, and the backups taken and restored.
    ///   - settings: the settings the box starts with (its first copy for undo).
    ///   - ring: wakes the playout when an errand is done.
    public init(
        settingsFile: SettingsFile?, backups: BoxBackupFiles?, factoryReset: FactoryReset?, settings: Settings,
        ring: @escaping @Sendable () -> Void
    ) {
        saver =
            settingsFile.map { file in
                SettingsSaver(write: { settings in
                    try file.save(settings)
                    backups?.keepCopy(of: settings, settles: true)
                })
            } ?? SettingsSaver(write: { _ in })
        files = FileErrands(saver: saver, backups: backups, ring: ring)
        (self.factoryReset, phase) = (factoryReset, settingsFile == nil ? .notKept : .saving)
        if let backups { saver.perform { backups.keepCopy(of: settings, settles: false) } }
    }

    /// Saves `settings` soon, unless they are not to be kept now.
    public func save(_ settings: Settings) {
        if case .saving = phase { saver.save(settings) }
    }

    /// `factory reset` (a request, or a button held through power-on): nothing is saved
    /// from now on, and the files go on the saver's thread (`finishFactoryReset` after).
    public func beginFactoryReset(forgetWiFi: Bool, for pending: ConsoleInbox.Pending?) {
        guard let factoryReset else {
            pending?.reply(.refusal(.unavailable, "this box keeps no settings (delaybox play): nothing to reset"))
            return
        }
        logger.notice(
            "factory reset asked\(pending == nil ? " by a button held through power-on" : ""): removing the settings")
        phase = .resetting
        files.reset(factoryReset, forgetWiFi: forgetWiFi, for: pending)
    }

    /// The reset's files are gone: the box stops, to be started again as new
    /// (`restartReason`); or they are not, and it plays on, saving `settings` again.
    public func finishFactoryReset(error: String?, settings: Settings) {
        if let error {
            logger.error("factory reset failed: \(error); the box plays on")
            phase = .saving
            save(settings)
            return
        }
        logger.notice("factory reset: the settings, the saved config and the page's password are removed; restarting")
        restartReason = "a factory reset"
    }

    /// `backup …` on the saver's thread for a box whose settings are `current`; a restore or
    /// an undo saves no settings while it writes its own (`finishBackup` after).
    public func beginBackup(
        _ job: BackupJob, door: NetworkDoorPolicy.Door?, current: Settings, for pending: ConsoleInbox.Pending
    ) {
        guard case .saving = phase else {
            pending.reply(.refusal(.unavailable, "this box keeps no settings (delaybox play), or is being reset"))
            return
        }
        if job.writes { phase = .restoring }
        files.backup(job, door: door, current: current, for: pending)
    }

    /// A restore or an undo written: the box stops, to start again on it; refused or not
    /// written: it plays on, saving `settings` again.
    public func finishBackup(_ job: BackupJob, _ outcome: BackupOutcome, settings: Settings) {
        guard job.writes else { return }
        switch outcome {
        case .restored(_, let undo, _, _): restartReason = undo ? "the last change undone" : "a backup restored"
        default:
            phase = .saving
            save(settings)
        }
    }
}
