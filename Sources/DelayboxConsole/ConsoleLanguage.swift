import DelayboxCommands

/// The console's commands: parsing a line, completing a word, help. See docs/console.md.
public enum ConsoleLanguage {
    /// Every command, in the order `help` lists them: each declared whole in `Commands/`.
    static let all: [ConsoleCommand] = [
        .help, .status, .delay, .volume, .pause, .resume, .mute, .channel, .ads, .preset, .events, .stats, .log,
        .config, .board, .group, .gpio, .remote, .tone, .update, .system, .uptime, .version, .web, .wifi,
        .backup, .factory, .venue,
    ]

    /// Every command: its name, its usage and what it does (what `help` and `delayboxctl
    /// --help` list).
    public static var commands: [(name: String, usage: String, summary: String)] {
        all.map { ($0.name, $0.usage, $0.summary) }
    }

    /// The commands that are reports without arguments (`ConsoleRequest.Action.report`).
    public static var reports: [String] { all.filter(\.report).map(\.name) }

    /// The command named `name` (lowercase), if there is one.
    static func command(named name: String) -> ConsoleCommand? { all.first { $0.name == name } }

    /// The request a line asks for; nil for an empty line.
    public static func parse(_ line: String) -> Result<ConsoleRequest, ConsoleError>? {
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let json = words.contains("--json")
        words.removeAll { $0 == "--json" }
        guard let name = words.first?.lowercased() else { return nil }
        guard let command = command(named: name) else {
            return .failure(unknown(name) ?? ConsoleError("unknown command '\(name)'"))
        }
        return command.request(
            ConsoleWords(
                arguments: Array(words.dropFirst()), json: json, rest: rest(of: line, after: [name]),
                usage: command.usage))
    }

    /// Why `word` names no command, with the nearest one; nil when it names one.
    public static func unknown(_ word: String) -> ConsoleError? {
        let name = word.lowercased()
        guard command(named: name) == nil else { return nil }
        return ConsoleError(
            Suggestion.message("unknown command '\(name)'", for: name, among: all.map(\.name))
                + "; 'help' lists them")
    }

    /// Whether `line` types a password (`web password`, `wifi join`, `wifi hotspot
    /// password`), well formed or not: the console's history does not keep it.
    static func typesPassword(_ line: String) -> Bool {
        [["web", "password"], ["wifi", "join"], ["wifi", "hotspot", "password"]].contains {
            rest(of: line, after: $0) != nil
        }
    }

    /// What follows `words` (any case, each a whole word) at the start of `line`, as typed,
    /// without the line's end; nil when the line does not begin with them. For the lines whose
    /// last argument is the rest of the line: a password.
    static func rest(of line: String, after words: [String]) -> Substring? {
        var rest = Substring(line)
        for word in words {
            rest = rest.drop { $0 == " " }
            guard rest.prefix(word.count).lowercased() == word else { return nil }
            rest = rest.dropFirst(word.count)
            guard rest.isEmpty || rest.first == " " else { return nil }
        }
        // "\r\n" is one Character: `isNewline` takes it whole.
        while rest.last?.isNewline == true { rest = rest.dropLast() }
        return rest
    }

    /// Completions for the word being typed, given the line up to the cursor.
    public static func completions(for before: String, channels: [String] = []) -> [String] {
        let words = before.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let typingNewWord = before.hasSuffix(" ") || before.isEmpty
        let position = typingNewWord ? words.count : words.count - 1
        if position == 0 { return all.map(\.name) }
        guard let entry = all.first(where: { $0.name == words[0].lowercased() }) else { return [] }
        if position == 1 {
            let extra = entry.name == "channel" ? channels : entry.name == "help" ? all.map(\.name) : []
            return entry.arguments + extra + ["--json"]
        }
        if entry.name == "log", words.count > 1, words[1] == "level" { return ConsoleCommand.logLevels }
        return ["--json"]
    }

    /// `help` with no topic: every command, one line each; with one, its usage.
    public static func help(_ topic: String?) -> Result<String, ConsoleError> {
        guard let topic else {
            let width = (all.map(\.name.count).max() ?? 0) + 2
            return .success(
                all.map { $0.name.padding(toLength: width) + $0.summary }.joined(separator: "\n")
                    + "\nEvery command also takes --json.")
        }
        guard let entry = all.first(where: { $0.name == topic }) else {
            return .failure(
                ConsoleError(Suggestion.message("no command '\(topic)'", for: topic, among: all.map(\.name))))
        }
        return .success("usage: \(entry.usage) [--json]\n\(entry.summary)")
    }

    /// `help` as a reply: the text, or a usage refusal for a command there is not.
    public static func helpReply(_ topic: String?) -> ConsoleReply {
        switch help(topic) {
        case .success(let text): .text(text)
        case .failure(let error): .usage(error)
        }
    }
}

extension String {
    func padding(toLength length: Int) -> String {
        count >= length ? self : self + String(repeating: " ", count: length - count)
    }
}
