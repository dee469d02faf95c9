import DelayboxLog
import Synchronization
import Testing

/// The logger's one output: levels filter, messages below the level are never built, and
/// the level changes while running (the console's `log level`).
@Suite(.serialized, .timeLimit(.minutes(10))) struct LoggerTests {
    final class Recording: LogSink {
        let lines = Mutex<[String]>([])
        func write(level: Logger.Level, label: String, message: String) {
            lines.withLock { $0.append("\(level.rawValue) \(label): \(message)") }
        }
    }

    @Test func onlyMessagesFromTheLevelUpAreWrittenAndBuilt() {
        let recording = Recording()
        LogOutput.bootstrap(recording, level: .notice)
        defer { LogOutput.level = .info }
        let logger = Logger(label: "delaybox.test")
        let built = Mutex(0)
        func message(_ text: String) -> String {
            built.withLock { $0 += 1 }
            return text
        }
        logger.debug(message("not written"))
        logger.info(message("not written either"))
        logger.notice(message("written"))
        logger.error(message("written too"))
        #expect(
            recording.lines.withLock { $0 } == ["notice delaybox.test: written", "error delaybox.test: written too"])
        #expect(built.withLock { $0 } == 2, "a message below the level is never built")

        LogOutput.level = .debug
        logger.debug("now written")
        #expect(recording.lines.withLock { $0 }.last == "debug delaybox.test: now written")
    }

    @Test func levelsAreOrderedBySeverity() {
        #expect(
            Logger.Level.allCases.map(\.rawValue) == [
                "trace", "debug", "info", "notice", "warning", "error", "critical",
            ])
        #expect(Logger.Level.debug < .info && Logger.Level.error > .warning && !(Logger.Level.notice < .notice))
    }
}
