import DelayboxLog
import DelayboxPlatform
import FoundationEssentials
import Synchronization

/// The log on stderr, one line per message: `label: message`. Under systemd
/// (`$JOURNAL_STREAM` set) each line starts with its syslog priority (`<3>` for errors),
/// which journald turns into the entry's level, so `journalctl -p warning` works; a
/// terminal gets the level as a word instead. The last lines are kept for `log tail`.
public struct JournalLog: LogSink {
    /// The last lines logged, for `log tail` (newest last).
    public static let recent = Mutex<[String]>([])
    static let recentCapacity = 200

    private let journal: Bool

    public init(journal: Bool = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil) {
        self.journal = journal
    }

    /// Sends every logger's output here; `DELAYBOX_LOG_LEVEL` (trace … critical) sets the level.
    public static func bootstrap() {
        let level = ProcessInfo.processInfo.environment["DELAYBOX_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LogOutput.bootstrap(JournalLog(), level: level)
    }

    public func write(level: Logger.Level, label: String, message: String) {
        let prefix = journal ? "<\(Self.priority(level))>" : "\(level.rawValue.uppercased()) "
        let line = "\(label): \(message)"
        StandardStream.error.write("\(prefix)\(line)\n")
        Self.recent.withLock { lines in
            lines.append("\(level.rawValue) \(line)")
            if lines.count > Self.recentCapacity { lines.removeFirst(lines.count - Self.recentCapacity) }
        }
    }

    /// syslog priorities, as sd-daemon(3) prefixes.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }
}
