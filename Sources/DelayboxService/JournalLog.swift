import DelayboxLog
import DelayboxPlatform
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The log on stderr, one line per message: `label: message`. Under systemd
/// (`$JOURNAL_STREAM` set) each line starts with its syslog priority (`<3>` for errors),
/// which journald turns into the entry's level, so `journalctl -p warning` works; a
/// terminal gets the level as a word instead. The last lines are kept for `log tail`.
public struct JournalLog: LogSink {
    /// The last lines logged, for `log tail` (newest last).
    public static let recent = Mutex<[String]>([])
    static let recentCapacity = 200
    /// The last hour's lines with their local time (`log hour`, the page's download), at
    /// most this many (about half a megabyte): a box logging in a loop keeps the newest.
    static let hourCapacity = 5_000
    private static let hour = Mutex<[(monotonicS: Int64, line: String)]>([])

    private let journal: Bool

    public init(journal: Bool = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil) {
        self.journal = journal
    }

    /// Sends every logger's output here; `DELAYBOX_LOG_LEVEL` (trace … critical) sets the level.
    public static func bootstrap() {
        let level =
            ProcessInfo.processInfo.environment["DELAYBOX_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LogOutput.bootstrap(JournalLog(), level: level)
    }

    public func write(level: Logger.Level, label: String, message: String) {
        let prefix = journal ? "<\(Self.priority(level))>" : "\(level.rawValue.uppercased()) "
        let line = Self.oneLine("\(label): \(message)")
        StandardStream.error.write("\(prefix)\(line)\n")
        Self.recent.withLock { lines in
            lines.append("\(level.rawValue) \(line)")
            if lines.count > Self.recentCapacity { lines.removeFirst(lines.count - Self.recentCapacity) }
        }
        let now = SystemClock.monotonicNanoseconds() / 1_000_000_000
        Self.hour.withLock { lines in
            lines.append((now, "\(Self.localTime()) \(level.rawValue) \(line)"))
            let stale = lines.prefix { now - $0.monotonicS > 3_600 }.count
            let excess = max(0, lines.count - stale - Self.hourCapacity)
            if stale + excess > 0 { lines.removeFirst(stale + excess) }
        }
    }

    /// `text` as one line of the log: a message quotes strangers' text (a stream's title, a
    /// playlist's entry, an MQTT payload), whose line breaks would start a line of their own
    /// — under systemd with a priority of the stranger's choosing (`\n<0>…`) — and whose
    /// escape sequences would drive the terminal of whoever reads it. Control characters
    /// are written as `\n`, `\r`, `\t` or `\u{1b}`.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return text
        }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The lines of the last hour, each with its local time (oldest first).
    public static func lastHour() -> [String] {
        let now = SystemClock.monotonicNanoseconds() / 1_000_000_000
        return hour.withLock { lines in lines.filter { now - $0.monotonicS <= 3_600 }.map(\.line) }
    }

    /// `2026-11-25 18:40:12`, local time.
    static func localTime() -> String {
        var now = time(nil), parts = tm()
        localtime_r(&now, &parts)
        return String(
            printf: "%04d-%02d-%02d %02d:%02d:%02d", Int(parts.tm_year) + 1_900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday),
            Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
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
