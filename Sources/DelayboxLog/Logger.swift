import Synchronization

/// A named logger, as swift-log's `Logger` is used here: `Logger(label:)`, then a message at
/// a level. Every logger writes to the one `LogOutput` sink, from its one level up.
///
/// Our own rather than swift-log's: the only swift-log within reach (1.16) needs Swift
/// tools 6.2, and the boards' own Swift (Debian 13's arm64 toolchain) is 6.0; the
/// appliance uses nothing of swift-log beyond this (no metadata providers, no handler
/// chains), and journald does the rest (docs/daemon.md).
public struct Logger: Sendable {
    /// syslog's severities, least severe first.
    public enum Level: String, Sendable, CaseIterable, Comparable {
        case trace, debug, info, notice, warning, error, critical

        public static func < (lhs: Level, rhs: Level) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// Who speaks (`delaybox.appliance`): the start of each line.
    public let label: String

    public init(label: String) { self.label = label }

    /// Writes `message` at `level` if the output takes that level; the message is only
    /// built then.
    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard let sink = LogOutput.sink(for: level) else { return }
        sink.write(level: level, label: label, message: message())
    }

    public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }
    public func critical(_ message: @autoclosure () -> String) { log(.critical, message()) }
}

/// Where log lines go: one implementation per destination (the journal's stderr, a test's
/// list). Called from any thread, never from the real-time audio thread.
public protocol LogSink: Sendable {
    func write(level: Logger.Level, label: String, message: String)
}

/// The process's log output: its sink and the least severe level it takes (changeable while
/// running: `log level debug` on the console). Until `bootstrap`, messages go nowhere.
public enum LogOutput {
    private static let state = Mutex<(sink: (any LogSink)?, level: Logger.Level)>((nil, .info))

    /// Sends every logger's messages from `level` up to `sink`.
    public static func bootstrap(_ sink: any LogSink, level: Logger.Level) {
        state.withLock { $0 = (sink, level) }
    }

    /// The least severe level written.
    public static var level: Logger.Level {
        get { state.withLock { $0.level } }
        set { state.withLock { $0.level = newValue } }
    }

    /// The sink, if a message at `level` is to be written.
    static func sink(for level: Logger.Level) -> (any LogSink)? {
        state.withLock { $0.level <= level ? $0.sink : nil }
    }
}
