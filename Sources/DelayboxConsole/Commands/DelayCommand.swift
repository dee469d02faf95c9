import DelayboxChecked
import DelayboxCommands

extension ConsoleCommand {
    /// `delay [SECONDS | +SECONDS | -SECONDS | live]`: a group's topic sets or moves the
    /// delay of every box of the venue.
    static let delay = ConsoleCommand(
        name: "delay", usage: "delay [SECONDS | +SECONDS | -SECONDS | live]",
        summary: "show or set the delay (units: 45, 45 s, 1.5 min, 300 ms); +/- adjust; live: the smallest",
        arguments: ["live"],
        doors: .venue { action in
            if case .command = action { true } else { false }
        }
    ) { words in
        guard !words.arguments.isEmpty else { return words.request(.showDelay) }
        return delay(words.arguments.joined(separator: " ")).flatMap { words.request(.command($0)) }
    }

    /// `45`, `45 s`, `1.5 min`, `300 ms`, `+0.5`, `-1 s`, `live`.
    static func delay(_ text: String) -> Result<Command, ConsoleError> {
        let trimmed = text.lowercased().trimmingSpaces()
        if trimmed == "live" { return .success(.jumpToLive) }
        let sign = trimmed.first.flatMap { $0 == "+" ? 1 : $0 == "-" ? -1 : nil }
        let body = sign == nil ? trimmed : String(trimmed.dropFirst()).trimmingSpaces()
        guard let milliseconds = milliseconds(body) else {
            return .failure(ConsoleError("'\(text)' is not a delay: try 45, 45 s, 1.5 min, 300 ms, +0.5, -1 or live"))
        }
        guard milliseconds <= 3_600_000 else { return .failure(ConsoleError("a delay is at most 60 min")) }
        if let sign { return .success(.adjustDelay(milliseconds: Int64(sign) * milliseconds)) }
        return .success(.setDelay(milliseconds: milliseconds))
    }

    /// A duration; a bare number is seconds.
    private static func milliseconds(_ text: String) -> Int64? {
        let units: [(String, Double)] = [("ms", 1), ("min", 60_000), ("s", 1_000), ("", 1_000)]
        for (unit, scale) in units where text.hasSuffix(unit) {
            // 1e308 s must be an error, not a trap.
            guard let value = Double(String(text.dropLast(unit.count)).trimmingSpaces()),
                let milliseconds = Checked.scaled(value, by: scale, in: 0...999_999_999_999_999)
            else { continue }
            return milliseconds
        }
        return nil
    }
}
