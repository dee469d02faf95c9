import DelayboxChecked
import DelayboxCommands
import DelayboxNetwork

/// The console's commands: parsing a line, completing a word, help. See docs/console.md.
public enum ConsoleLanguage {
    struct Entry: Sendable {
        var name: String
        var usage: String
        var summary: String
        /// Words that may follow the command, for completion.
        var arguments: [String]
        /// Without arguments, a report: answered by its name (`ConsoleRequest.Action.report`),
        /// changing nothing.
        var report = false
    }

    static let entries: [Entry] = [
        Entry(name: "help", usage: "help [COMMAND]", summary: "list the commands, or explain one", arguments: []),
        Entry(
            name: "status", usage: "status",
            summary: "state, channel, delay set and available, volume, buffer, now playing, uptime", arguments: []),
        Entry(
            name: "delay", usage: "delay [SECONDS | +SECONDS | -SECONDS | live]",
            summary: "show or set the delay (units: 45, 45 s, 1.5 min, 300 ms); +/- adjust; live: the smallest",
            arguments: ["live"]),
        Entry(
            name: "volume", usage: "volume [0-100 | +N | -N]", summary: "show or set the volume (perceptual scale)",
            arguments: []),
        Entry(
            name: "pause", usage: "pause", summary: "hold playout; recording goes on, so the delay grows", arguments: []
        ),
        Entry(name: "resume", usage: "resume", summary: "play on from where it was held", arguments: []),
        Entry(
            name: "mute", usage: "mute [on|off]",
            summary: "mute or unmute the output (without on or off: the other way)", arguments: ["on", "off"]),
        Entry(
            name: "channel", usage: "channel [list | next | NAME | add NAME URL | remove NAME]",
            summary: "list the channels, switch, or add one from a station's link (config save keeps it)",
            arguments: ["list", "next", "add", "remove"]),
        Entry(
            name: "ads", usage: "ads [on | off]", summary: "show or set whether ad breaks play their ad",
            arguments: ["on", "off"]),
        Entry(
            name: "preset", usage: "preset [recall] N | preset save N", summary: "recall or save a delay preset",
            arguments: ["save", "recall"]),
        Entry(
            name: "events", usage: "events", summary: "recent stream events, with stream time and firing time",
            arguments: [], report: true),
        Entry(
            name: "stats", usage: "stats [watch]",
            summary: "underruns, xruns, reconnects, drift, delay error, CPU, RSS; watch refreshes", arguments: ["watch"]
        ),
        Entry(
            name: "log", usage: "log level [LEVEL] | log tail [N] | log hour",
            summary: "show or set the log level, show recent log lines, or the last hour's with their times",
            arguments: ["level", "tail", "hour"]),
        Entry(
            name: "config", usage: "config show | config get KEY | config set KEY VALUE | config save",
            summary: "the running configuration", arguments: ["show", "get", "set", "save"]),
        Entry(
            name: "board", usage: "board | board list | board use NAME",
            summary:
                "the board: pins and audio device; the shipped boards (the one the HAT names marked); choose one (the box restarts)",
            arguments: ["list", "use"]),
        Entry(
            name: "group", usage: "group | group delay SECONDS | group channel NAME",
            summary:
                "the boxes of this box's venue group (mqtt.group) as last heard; the same delay or channel for all of them",
            arguments: ["delay", "channel"]),
        Entry(name: "gpio", usage: "gpio", summary: "a live view of the input lines", arguments: [], report: true),
        Entry(
            name: "remote", usage: "remote", summary: "the remote's device and the last keys it sent", arguments: [],
            report: true),
        Entry(
            name: "tone", usage: "tone on | tone off", summary: "a test tone instead of the programme",
            arguments: ["on", "off"]),
        Entry(
            name: "update", usage: "update | update VERSION | update --canary BOX [--now]",
            summary:
                "update Delaybox from the box's apt sources (checked, rolled back if it does not play); a group in stages, BOX first",
            arguments: ["--canary"]),
        Entry(
            name: "system", usage: "system",
            summary: "the machine: addresses, Wi-Fi signal and missed beacons, CPU temperature, uptime",
            arguments: [], report: true),
        Entry(
            name: "uptime", usage: "uptime",
            summary: "how long the box has run since its start, and the machine since its boot", arguments: [],
            report: true),
        Entry(
            name: "version", usage: "version", summary: "the firmware version and its FFmpeg's", arguments: [],
            report: true),
        Entry(
            name: "web", usage: "web | web password PASSWORD | web reset",
            summary:
                "the web page's password: whether one is set, set one, or forget it (the page lets one be chosen for 30 min)",
            arguments: ["password", "reset"]),
        Entry(
            name: "wifi",
            usage: "wifi | wifi join NETWORK [PASSWORD] | wifi hotspot on|off | wifi hotspot password NEW",
            summary:
                "the box's Wi-Fi: its network, its hotspot (name, password), the networks in reach; join one (a name with spaces in \"quotes\"); the hotspot's own password",
            arguments: ["join", "hotspot"]),
    ]

    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// Every command: its name, its usage and what it does (what `help` and `delayboxctl
    /// --help` list).
    public static var commands: [(name: String, usage: String, summary: String)] {
        entries.map { ($0.name, $0.usage, $0.summary) }
    }

    /// The commands that are reports without arguments (`ConsoleRequest.Action.report`).
    public static var reports: [String] { entries.filter(\.report).map(\.name) }

    /// The request a line asks for; nil for an empty line.
    public static func parse(_ line: String) -> Result<ConsoleRequest, ConsoleError>? {
        if let password = webPassword(line) {
            return password.isEmpty
                ? .failure(ConsoleError("usage: web password PASSWORD"))
                : .success(ConsoleRequest(.webPassword(password)))
        }
        if let join = wifiJoin(line) { return join }
        if let password = rest(of: line, after: ["wifi", "hotspot", "password"]) {
            // The rest of the line exactly, as a join's password: spaces count.
            let text = String(password.first == " " ? password.dropFirst() : password)
            if let problem = text.isEmpty
                ? "usage: wifi hotspot password NEW (8-63 characters)"
                : WiFiCredentials
                    .passwordProblem(text)
            {
                return .failure(ConsoleError(problem))
            }
            return .success(ConsoleRequest(.wifiHotspotPassword(text)))
        }
        var words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let json = words.contains("--json")
        words.removeAll { $0 == "--json" }
        guard let name = words.first?.lowercased() else { return nil }
        let arguments = Array(words.dropFirst())
        guard let entry = entries.first(where: { $0.name == name }) else {
            return .failure(unknown(name) ?? ConsoleError("unknown command '\(name)'"))
        }
        return action(entry, arguments).map { ConsoleRequest($0, json: json) }
    }

    /// Why `word` names no command, with the nearest one; nil when it names one.
    public static func unknown(_ word: String) -> ConsoleError? {
        let name = word.lowercased()
        guard !entries.contains(where: { $0.name == name }) else { return nil }
        return ConsoleError(
            Suggestion.message("unknown command '\(name)'", for: name, among: entries.map(\.name))
                + "; 'help' lists them")
    }

    private static func action(_ entry: Entry, _ arguments: [String]) -> Result<ConsoleRequest.Action, ConsoleError> {
        func usage() -> Result<ConsoleRequest.Action, ConsoleError> { .failure(ConsoleError("usage: \(entry.usage)")) }
        let first = arguments.first?.lowercased()
        if entry.report, arguments.isEmpty { return .success(.report(entry.name)) }
        switch (entry.name, arguments.count) {
        case ("help", 0): return .success(.help(topic: nil))
        case ("help", 1): return .success(.help(topic: first))
        case ("status", 0): return .success(.status)
        case ("update", 0): return .success(.update(version: nil))
        case ("update", 1) where first != "--canary":
            guard PackageVersion.isValid(arguments[0]) else {
                return .failure(
                    ConsoleError(
                        "'\(arguments[0])' is not a release's version (e.g. 1.4.0-1~deb13): usage: \(entry.usage)"))
            }
            return .success(.update(version: arguments[0]))
        case ("update", 2...3) where first == "--canary":
            guard isBoxName(arguments[1]) else {
                return .failure(
                    ConsoleError("'\(arguments[1])' is not a box's MQTT client id (letters, digits, . _ -, at most 64)")
                )
            }
            guard arguments.count == 2 || arguments[2] == "--now" else { return usage() }
            return .success(.stagedUpdate(canary: arguments[1], now: arguments.count == 3))
        case ("pause", 0): return .success(.command(.pause))
        case ("resume", 0): return .success(.command(.resume))
        case ("mute", 0): return .success(.command(.toggleMute))
        case ("mute", 1) where first == "on": return .success(.command(.setMuted(true)))
        case ("mute", 1) where first == "off": return .success(.command(.setMuted(false)))
        case ("board", 0): return .success(.board)
        case ("group", 0): return .success(.groupMembers)
        case ("group", 2...) where first == "delay" || first == "channel":
            // Checked here as each box will check it: a line every box refuses is not sent.
            let line = arguments.joined(separator: " ")
            switch parse(line)?.map(\.action) {
            case .failure(let error)?: return .failure(error)
            // A delay set or moved; a channel chosen by name, or the next.
            case .success(.command)?, .success(.selectChannel)?: return .success(.toGroup(line))
            default: return usage()
            }
        case ("board", 1) where first == "list": return .success(.boardList)
        case ("board", 2) where first == "use":
            guard isBoardName(arguments[1]) else {
                return .failure(
                    ConsoleError(
                        "'\(arguments[1])' is not a board's name (board list names them): usage: \(entry.usage)"))
            }
            return .success(.chooseBoard(arguments[1]))
        case ("delay", 0): return .success(.showDelay)
        case ("delay", _): return delay(arguments.joined(separator: " ")).map { .command($0) }
        case ("volume", 0): return .success(.showVolume)
        case ("volume", 1): return volume(arguments[0]).map { .command($0) }
        case ("channel", 0): return .success(.listChannels)
        case ("channel", 1) where first == "list": return .success(.listChannels)
        case ("channel", 1) where first == "next": return .success(.command(.nextChannel))
        case ("channel", let count) where count >= 3 && first == "add":
            return .success(
                .addChannel(name: arguments.dropFirst().dropLast().joined(separator: " "), url: arguments[count - 1]))
        case ("channel", 2...) where first == "remove":
            return .success(.removeChannel(arguments.dropFirst().joined(separator: " ")))
        case ("channel", 1) where first == "add" || first == "remove": return usage()
        case ("channel", _): return .success(.selectChannel(arguments.joined(separator: " ")))
        case ("ads", 0): return .success(.showAds)
        case ("ads", 1) where first == "on": return .success(.command(.setAds(true)))
        case ("ads", 1) where first == "off": return .success(.command(.setAds(false)))
        case ("preset", 1): return presetSlot(arguments[0]).map { .command(.recallPreset($0)) }
        case ("preset", 2) where first == "recall": return presetSlot(arguments[1]).map { .command(.recallPreset($0)) }
        case ("preset", 2) where first == "save": return presetSlot(arguments[1]).map { .command(.savePreset($0)) }
        case ("stats", 0): return .success(.stats(watch: false))
        case ("stats", 1) where first == "watch": return .success(.stats(watch: true))
        case ("log", 1) where first == "level": return .success(.logLevel(nil))
        case ("log", 2) where first == "level":
            let level = arguments[1].lowercased()
            guard logLevels.contains(level) else {
                return .failure(
                    ConsoleError(
                        Suggestion.message(
                            "no log level '\(level)' (\(logLevels.joined(separator: ", ")))", for: level,
                            among: logLevels)))
            }
            return .success(.logLevel(level))
        case ("log", 1) where first == "tail": return .success(.logTail(lines: 20))
        case ("log", 1) where first == "hour": return .success(.logHour)
        case ("log", 2) where first == "tail":
            guard let count = Int(arguments[1]), (1...1_000).contains(count) else {
                return .failure(ConsoleError("log tail takes 1-1000 lines"))
            }
            return .success(.logTail(lines: count))
        case ("config", 1) where first == "show": return .success(.configShow)
        case ("config", 1) where first == "save": return .success(.configSave)
        case ("config", 2) where first == "get": return .success(.configGet(key: arguments[1]))
        case ("config", 3...) where first == "set":
            return .success(.configSet(key: arguments[1], value: arguments.dropFirst(2).joined(separator: " ")))
        case ("web", 0): return .success(.web)
        case ("web", 1) where first == "reset": return .success(.webReset)
        case ("wifi", 0): return .success(.wifi)
        case ("wifi", 2) where first == "hotspot" && ["on", "off"].contains(arguments[1].lowercased()):
            return .success(.wifiHotspot(open: arguments[1].lowercased() == "on"))
        case ("tone", 1) where first == "on": return .success(.tone(on: true))
        case ("tone", 1) where first == "off": return .success(.tone(on: false))
        default: return usage()
        }
    }

    /// A box's MQTT client id as a canary is named (one topic level: no wildcard, no `/`).
    public static func isBoxName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
    }

    /// Whether `text` may name a shipped board config (its file name without `.yaml`):
    /// lowercase letters, digits and `-`, at most 64 — never a path, which root's helper
    /// would otherwise read from the service's words.
    public static func isBoardName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && !text.hasPrefix("-")
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// `wifi join NETWORK [PASSWORD]` read as typed, before the line is split into words: the
    /// network's name is one word or "in quotes" (`\"` and `\\` inside), the password is the
    /// rest of the line exactly (spaces count; none: an open network). Nil for other lines.
    static func wifiJoin(_ line: String) -> Result<ConsoleRequest, ConsoleError>? {
        guard var rest = rest(of: line, after: ["wifi", "join"]) else { return nil }
        rest = rest.drop { $0 == " " }
        let usage = ConsoleError("usage: wifi join NETWORK [PASSWORD] (a name with spaces in \"quotes\")")
        var ssid = ""
        if rest.first == "\"" {
            rest = rest.dropFirst()
            var closed = false
            while let character = rest.first {
                rest = rest.dropFirst()
                if character == "\"" {
                    closed = true
                    break
                }
                if character == "\\", let next = rest.first {
                    ssid.append(next)
                    rest = rest.dropFirst()
                } else {
                    ssid.append(character)
                }
            }
            guard closed, rest.isEmpty || rest.first == " " else { return .failure(usage) }
        } else {
            ssid = String(rest.prefix { $0 != " " })
            rest = rest.dropFirst(ssid.count)
        }
        guard !ssid.isEmpty else { return .failure(usage) }
        let password = rest.first == " " ? String(rest.dropFirst()) : ""
        if let problem = WiFiCredentials.networkNameProblem(ssid) ?? WiFiCredentials.passwordProblem(password) {
            return .failure(ConsoleError(problem))
        }
        return .success(ConsoleRequest(.wifiJoin(ssid: ssid, password: password)))
    }

    /// The password of `web password PASSWORD` exactly as typed (spaces and `--json`
    /// inside it count), "" when there is none; nil for any other line.
    static func webPassword(_ line: String) -> String? {
        guard let rest = rest(of: line, after: ["web", "password"]) else { return nil }
        return String(rest.first == " " ? rest.dropFirst() : rest)
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

    static func presetSlot(_ text: String) -> Result<Int, ConsoleError> {
        guard let slot = Int(text), (1...9).contains(slot) else {
            return .failure(ConsoleError("a preset is 1-9; got '\(text)'"))
        }
        return .success(slot)
    }

    /// `45`, `45 s`, `1.5 min`, `300 ms`, `+0.5`, `-1 s`, `live`.
    static func delay(_ text: String) -> Result<Command, ConsoleError> {
        let trimmed = text.lowercased().trimmingSpaces()
        if trimmed == "live" { return .success(.jumpToLive) }
        let sign = trimmed.first.flatMap { $0 == "+" ? 1 : $0 == "-" ? -1 : nil }
        let body = sign == nil ? trimmed : String(trimmed.dropFirst()).trimmingSpaces()
        guard let milliseconds = Self.milliseconds(body) else {
            return .failure(ConsoleError("'\(text)' is not a delay: try 45, 45 s, 1.5 min, 300 ms, +0.5, -1 or live"))
        }
        guard milliseconds <= 3_600_000 else { return .failure(ConsoleError("a delay is at most 60 min")) }
        if let sign { return .success(.adjustDelay(milliseconds: Int64(sign) * milliseconds)) }
        return .success(.setDelay(milliseconds: milliseconds))
    }

    /// A duration; a bare number is seconds.
    static func milliseconds(_ text: String) -> Int64? {
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

    static func volume(_ text: String) -> Result<Command, ConsoleError> {
        if let first = text.first, first == "+" || first == "-", let steps = Int(text.dropFirst()),
            (0...100).contains(steps)
        {
            return .success(.adjustVolume(steps: first == "+" ? steps : -steps))
        }
        guard let volume = Int(text), (0...100).contains(volume) else {
            return .failure(ConsoleError("'\(text)' is not a volume: 0-100, or +N / -N"))
        }
        return .success(.setVolume(volume))
    }

    /// Completions for the word being typed, given the line up to the cursor.
    public static func completions(for before: String, channels: [String] = []) -> [String] {
        let words = before.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        let typingNewWord = before.hasSuffix(" ") || before.isEmpty
        let position = typingNewWord ? words.count : words.count - 1
        if position == 0 { return entries.map(\.name) }
        guard let entry = entries.first(where: { $0.name == words[0].lowercased() }) else { return [] }
        if position == 1 {
            let extra = entry.name == "channel" ? channels : entry.name == "help" ? entries.map(\.name) : []
            return entry.arguments + extra + ["--json"]
        }
        if entry.name == "log", words.count > 1, words[1] == "level" { return logLevels }
        return ["--json"]
    }

    /// `help` with no topic: every command, one line each; with one, its usage.
    public static func help(_ topic: String?) -> Result<String, ConsoleError> {
        guard let topic else {
            let width = (entries.map(\.name.count).max() ?? 0) + 2
            return .success(
                entries.map { $0.name.padding(toLength: width) + $0.summary }.joined(separator: "\n")
                    + "\nEvery command also takes --json.")
        }
        guard let entry = entries.first(where: { $0.name == topic }) else {
            return .failure(
                ConsoleError(Suggestion.message("no command '\(topic)'", for: topic, among: entries.map(\.name))))
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
