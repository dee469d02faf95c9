import Foundation
import Logging
import Synchronization

/// swift-log to stderr, one line per message: `label: message [key=value …]`. Under
/// systemd (`$JOURNAL_STREAM` set) each line starts with its syslog priority (`<3>` for
/// errors), which journald turns into the entry's level, so `journalctl -p warning`
/// works; a terminal gets the level as a word instead.
public struct JournalLogHandler: LogHandler {
    /// One level for every logger, changeable while running (`log level debug` on the console).
    static let sharedLevel = Mutex(Logger.Level.info)
    /// The last lines logged, for `log tail` (newest last).
    static let recent = Mutex<[String]>([])
    static let recentCapacity = 200

    public var logLevel: Logger.Level {
        get { Self.sharedLevel.withLock { $0 } }
        set { Self.sharedLevel.withLock { $0 = newValue } }
    }
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let journal: Bool

    public init(label: String, journal: Bool = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil) {
        self.label = label
        self.journal = journal
    }

    /// Sends every logger's output here; `DELAYBOX_LOG_LEVEL` (trace … critical) sets the level.
    public static func bootstrap() {
        let level = ProcessInfo.processInfo.environment["DELAYBOX_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        sharedLevel.withLock { $0 = level }
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let prefix = journal ? "<\(Self.priority(event.level))>" : "\(event.level.rawValue.uppercased()) "
        let line = "\(label): \(event.message)\(fields)"
        FileHandle.standardError.write(Data("\(prefix)\(line)\n".utf8))
        Self.recent.withLock { lines in
            lines.append("\(event.level.rawValue) \(line)")
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
