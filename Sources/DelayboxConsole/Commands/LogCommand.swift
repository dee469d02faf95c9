import DelayboxCommands

extension ConsoleCommand {
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// `log level [LEVEL] | log tail [N] | log hour`.
    static let log = ConsoleCommand(
        name: "log", usage: "log level [LEVEL] | log tail [N] | log hour",
        summary: "show or set the log level, show recent log lines, or the last hour's with their times",
        arguments: ["level", "tail", "hour"], doors: .listener
    ) { words in
        let arguments = words.arguments
        switch (arguments.count, words.first) {
        case (1, "level"): return words.request(.logLevel(nil))
        case (2, "level"):
            let level = arguments[1].lowercased()
            guard logLevels.contains(level) else {
                return .failure(
                    ConsoleError(
                        Suggestion.message(
                            "no log level '\(level)' (\(logLevels.joined(separator: ", ")))", for: level,
                            among: logLevels)))
            }
            return words.request(.logLevel(level))
        case (1, "tail"): return words.request(.logTail(lines: 20))
        case (1, "hour"): return words.request(.logHour)
        case (2, "tail"):
            guard let count = Int(arguments[1]), (1...1_000).contains(count) else {
                return .failure(ConsoleError("log tail takes 1-1000 lines"))
            }
            return words.request(.logTail(lines: count))
        default: return words.usageError
        }
    }
}
