import DelayboxConfig
import DelayboxLog
import DelayboxPlatform

/// The config in force and the two ways it changes while the box plays: the console's
/// `config set` (edited by `ConsoleAnswers`, handed over as `ConsoleEffect.configEdited`),
/// and the files read again (SIGHUP, or the console's `config save`). The files are read
/// off the playout thread (`readAgain`, on the saver's): parsing a board's YAML and its
/// bases is no work for a SCHED_FIFO thread with 80 ms of audio in hand. A file that no
/// longer reads changes nothing.
public struct ConfigInForce {
    /// Reads the config files again; throws when they are invalid.
    public typealias Read = @Sendable () throws -> (config: BoardConfig, document: ConfigNode?)

    /// The files as read again: the config to take, or why the running one is kept.
    public enum Reading: Sendable {
        case read(BoardConfig, document: ConfigNode?)
        case kept(why: String)
    }

    public private(set) var config: BoardConfig
    /// The config as written (values with their files and lines), for `config get`.
    public private(set) var document: ConfigNode?
    /// Reads the files again (on the saver's thread: `readAgain`, `FileErrands`).
    public let read: Read
    /// The config before the changes not yet taken (`takeChange`); nil: none since.
    private var changedFrom: BoardConfig?
    private let logger = Logger(label: "delaybox.config")

    public init(config: BoardConfig, document: ConfigNode?, read: @escaping Read) {
        (self.config, self.document, self.read) = (config, document, read)
    }

    /// The files read with `read`, checked against the board's memory; on any thread.
    public static func readAgain(_ read: Read) -> Reading {
        do {
            let fresh = try read()
            if let ram = SystemMemory.totalBytes(), let problem = ChannelMemory.problem(fresh.config, ramBytes: ram) {
                return .kept(why: problem)
            }
            return .read(fresh.config, document: fresh.document)
        } catch {
            return .kept(why: "\(error)")
        }
    }

    /// The console's edit (`ConsoleEffect.configEdited`): in force at once, so that the
    /// wake-up's next request is answered from it.
    public mutating func edit(_ edited: BoardConfig, document edits: ConfigNode) {
        changedFrom = changedFrom ?? config
        (config, document) = (edited, edits)
    }

    /// The files as read again (`readAgain`) taken over, unless they no longer read.
    public mutating func take(_ reading: Reading) {
        changedFrom = changedFrom ?? config
        reload(reading)
    }

    /// The config in force before the edits and readings since the last call, when the one
    /// in force now is different.
    public mutating func takeChange() -> BoardConfig? {
        defer { changedFrom = nil }
        return changedFrom == config ? nil : changedFrom
    }

    /// What can change live takes effect (channels, delay step, defaults for the next start).
    private mutating func reload(_ reading: Reading) {
        switch reading {
        case .kept(let why):
            logger.error("config not reloaded, keeping the running one: \(why)")
        case .read(let fresh, let freshDocument):
            let changed = fresh != config
            (config, document) = (fresh, freshDocument)
            logger.info(
                "config reloaded\(changed ? "" : " (unchanged)"): \(config.channels.channels.count) channel(s), delay step \(config.defaults.delayStep.milliseconds) ms"
            )
        }
    }
}
