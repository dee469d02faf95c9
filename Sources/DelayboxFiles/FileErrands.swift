import DelayboxAnswers
import DelayboxConfig
import DelayboxConfigFile
import DelayboxConsole
import DelayboxDoors
import DelayboxPlatform
import DelayboxState
import DelayboxUnits
import FoundationEssentials
import Synchronization

/// The files the playout needs written or read, done on the saver's thread — never the
/// playout's, whose ring holds 80 ms while a slow SD card's fsync takes longer (SlowDiskTests)
/// — and their outcomes, which the playout takes at its next wake-up (the inbox's bell
/// wakes it). The requests that asked wait for them.
public final class FileErrands: Sendable {
    /// What an errand came to.
    public enum Outcome: Sendable {
        /// A request's file written (`error`: why not); for `config save`, the config
        /// files then read again (`reading`).
        case written(ConsoleInbox.Pending, FileWrite, error: String?, reading: ConfigInForce.Reading?)
        /// The config files read again (SIGHUP).
        case reread(ConfigInForce.Reading)
        /// A factory reset's files removed (`error`: why not), for the request that asked
        /// (nil: a hand on the box).
        case reset(ConsoleInbox.Pending?, forgetWiFi: Bool, error: String?)
        /// A `backup` errand done, for the request that asked.
        case backup(ConsoleInbox.Pending, BackupJob, BackupOutcome)
        /// A venue change done, for the request that asked; the config files then read again
        /// when the box's own MQTT settings changed (`reading`).
        case venue(ConsoleInbox.Pending, VenueOutcome, reading: ConfigInForce.Reading?)
    }

    private let saver: SettingsSaver
    private let backups: BoxBackupFiles?
    private let ring: @Sendable () -> Void
    private let done = Mutex<(outcomes: [Outcome], underWay: Int)>(([], 0))

    public init(saver: SettingsSaver, backups: BoxBackupFiles?, ring: @escaping @Sendable () -> Void) {
        (self.saver, self.backups, self.ring) = (saver, backups, ring)
    }

    /// Errands handed over whose outcome has not been taken yet.
    public var underWay: Int { done.withLock { $0.underWay } }

    /// Writes `write` for `pending`; a `config save` then reads the files again with `read`.
    public func write(_ write: FileWrite, for pending: ConsoleInbox.Pending, read: @escaping ConfigInForce.Read) {
        run { [backups] in
            let error = Self.perform(write)
            let reading = write.purpose == .configSave && error == nil ? ConfigInForce.readAgain(read) : nil
            // A change an owner may want to undo (a request for root's helper is none).
            if error == nil, write.purpose.isOwnersChoice { backups?.keepCopy(of: nil, settles: true) }
            return .written(pending, write, error: error, reading: reading)
        }
    }

    /// Removes what `reset` names; the settings still waiting to be saved are dropped first
    /// (on the saver's thread, so none is written after the removal).
    public func reset(_ reset: FactoryReset, forgetWiFi: Bool, for pending: ConsoleInbox.Pending?) {
        run { [saver] in
            saver.discardPending()
            return .reset(pending, forgetWiFi: forgetWiFi, error: reset.perform(forgetWiFi: forgetWiFi))
        }
    }

    /// Carries out `job` (asked through `door`) for a box whose settings are `current`; a
    /// restore or an undo drops the settings still waiting to be saved first (its own are
    /// the box's now).
    public func backup(
        _ job: BackupJob, door: NetworkDoorPolicy.Door?, current: Settings, for pending: ConsoleInbox.Pending
    ) {
        run { [saver, backups] in
            guard let backups else {
                return .backup(pending, job, .failed(.unavailable, "this box keeps no settings (delaybox play)"))
            }
            if job.writes { saver.discardPending() }
            return .backup(pending, job, backups.perform(job, door: door, current: current))
        }
    }

    /// Carries out `job` for `pending` (`VenueErrand`, root asked through `requestDirectory`),
    /// then reads the config files again with `read` when the box's settings changed.
    public func venue(
        _ job: VenueJob, requestDirectory: String, configPath: String, brokerPort: Int, clock: any MonotonicClock,
        for pending: ConsoleInbox.Pending, read: @escaping ConfigInForce.Read
    ) {
        run {
            let errand = VenueErrand(
                requestDirectory: requestDirectory, configPath: configPath, clock: clock, brokerPort: brokerPort)
            let outcome = errand.perform(job)
            let reading = outcome.savedSettings ? ConfigInForce.readAgain(read) : nil
            return .venue(pending, outcome, reading: reading)
        }
    }

    /// Reads the config files again with `read`.
    public func reread(_ read: @escaping ConfigInForce.Read) { run { .reread(ConfigInForce.readAgain(read)) } }

    /// The outcomes since the last call, in the order the errands were handed over.
    public func take() -> [Outcome] {
        done.withLock { done in
            defer { (done.outcomes, done.underWay) = ([], done.underWay - done.outcomes.count) }
            return done.outcomes
        }
    }

    private func run(_ errand: @escaping @Sendable () -> Outcome) {
        done.withLock { $0.underWay += 1 }
        saver.perform { [self] in
            let outcome = errand()
            done.withLock { $0.outcomes.append(outcome) }
            ring()
        }
    }

    /// Writes `write` durably (fsync, rename, fsync of the folder: a power cut leaves the
    /// old file or the new one); nil when written, else why not.
    static func perform(_ write: FileWrite) -> String? {
        do {
            try DurableFile.write(bytes(of: write), to: write.path, mode: write.mode)
            return nil
        } catch {
            return ErrorText.of(error)
        }
    }

    /// The bytes `write` leaves: `config save`'s changes laid over the file as it is
    /// (refused when that file no longer reads: `SavedConfig`).
    static func bytes(of write: FileWrite) throws -> [UInt8] {
        switch write.content {
        case .bytes(let bytes):
            return bytes
        case .configOverlay(let changes):
            let saved = try SavedConfig.document(at: write.path)
            let text =
                "# Written by the console's `config save`; laid over the site file at start. Delete it to go back.\n"
                + ConfigFile.yaml(saved.map { $0.merged(with: changes) } ?? changes)
            return Array(text.utf8)
        }
    }
}

extension FileWrite.Purpose {
    /// A choice an owner may want to undo (`BackupShelf`): a saved config, the nightly
    /// updates — not a request left for root's helper.
    fileprivate var isOwnersChoice: Bool {
        switch self {
        case .configSave, .dailyUpdates: true
        case .request: false
        }
    }
}

extension VenueOutcome {
    /// Whether the box's own settings were written (a hub made, a venue joined or left).
    fileprivate var savedSettings: Bool {
        if case .done = self { true } else { false }
    }
}

extension BackupJob {
    /// A restore or an undo: it writes the box's files.
    public var writes: Bool {
        switch self {
        case .restore, .undo: true
        case .take, .list: false
        }
    }
}
