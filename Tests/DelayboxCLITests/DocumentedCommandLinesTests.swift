import DelayboxConsole
import DelayboxTestSupport
import Foundation
import Testing

/// Every `delaybox` and `delayboxctl` command line in the code blocks of README.md and
/// docs/*.md is one the programs take: each is parsed by the program's own argument
/// parser (`DELAYBOX_PARSE_ONLY`), so the docs cannot drift from the command lines.
@Suite(.timeLimit(.minutes(10))) struct DocumentedCommandLinesTests {
    static let root = CommandLineTests.root

    /// A command line as a doc shows it, and where.
    struct Shown: CustomStringConvertible {
        var file: String
        var line: Int
        var words: [String]
        var description: String { "\(file):\(line): \(words.joined(separator: " "))" }
    }

    /// The command lines in fenced code blocks that run one of the programs: a `$ `
    /// prompt, a path before the program's name, a `# comment`, a `\` continuation and
    /// a redirection are read as a shell would.
    static func shownCommandLines() throws -> [Shown] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        var shown: [Shown] = []
        for file in ["README.md"] + docs {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            var inBlock = false
            var pending: (line: Int, text: String)?
            for (index, line) in text.components(separatedBy: "\n").enumerated() {
                if line.hasPrefix("```") {
                    inBlock.toggle()
                    continue
                }
                guard inBlock else { continue }
                let joined = (pending?.text ?? "") + line
                let start = pending?.line ?? index + 1
                if joined.hasSuffix("\\") {
                    pending = (start, String(joined.dropLast()))
                    continue
                }
                pending = nil
                var words = shellWords(joined)
                if words.first == "$" { words.removeFirst() }
                guard let program = words.first.map({ URL(fileURLWithPath: $0).lastPathComponent }),
                    program == "delaybox" || program == "delayboxctl"
                else { continue }
                words[0] = program
                shown.append(Shown(file: file, line: start, words: words))
            }
        }
        return shown
    }

    /// Words as a shell splits them (quotes kept together), up to a comment or a redirection.
    static func shellWords(_ line: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        var inWord = false
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else if !inWord, character == "#" || character == ">" || character == "|" {
                break
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }

    static func parse(_ words: [String]) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(
            BuiltProgram.url("\(words[0])", root: root), Array(words.dropFirst()),
            environment: ["DELAYBOX_PARSE_ONLY": "1"])
    }

    @Test func everyCommandLineInTheDocsIsTakenByItsProgram() throws {
        let shown = try Self.shownCommandLines()
        #expect(shown.count >= 12, "the docs' command lines were found: \(shown)")
        #expect(Set(shown.map { $0.words[0] }) == ["delaybox", "delayboxctl"])
        for line in shown {
            let parsed = try Self.parse(line.words)
            #expect(parsed.status == 0, "\(line) — \(parsed.errors)")
        }
    }

    /// `delayboxctl`'s commands are the console language's own list: every command of it
    /// reaches the box (a new console command needs nothing here), a word that is none is
    /// refused before asking, with the nearest command.
    @Test func everyConsoleCommandIsADelayboxctlCommand() throws {
        for command in ConsoleLanguage.commands {
            let parsed = try Self.parse(["delayboxctl", command.name])
            #expect(!parsed.errors.contains("unknown command"), "\(command.name): \(parsed.errors)")
        }
        let typo = try Self.parse(["delayboxctl", "stauts"])
        #expect(typo.status == 64 && typo.errors.contains("did you mean 'status'"), "\(typo.errors)")
        let ctl = BuiltProgram.url("delayboxctl", root: Self.root)
        let help = try ExternalTool.execute(ctl, ["--help"])
        let explained = try ExternalTool.execute(ctl, ["line", "help"], environment: ["DELAYBOX_SOCKET": "/nowhere"])
        for command in ConsoleLanguage.commands {
            #expect(help.output.contains(command.name), "--help names \(command.name)")
            #expect(explained.output.contains(command.summary), "line help says what \(command.name) does")
        }
        let one = try ExternalTool.execute(ctl, ["line", "help", "delay"])
        #expect(one.status == 0 && one.output.hasPrefix("usage: delay [SECONDS"), "\(one.output)")
    }

    /// The check itself: a misspelt option, a missing subcommand's value, a command that
    /// does not exist are refused in parse-only mode, and a line is read as a shell would.
    @Test func theParseOnlyCheckRefusesWhatTheProgramsDoNot() throws {
        for words in [
            ["delaybox", "play", "URL", "--dleay", "10"], ["delayboxctl", "preset"], ["delaybox", "fly"],
            ["delayboxctl", "--socket"],
        ] {
            #expect(try Self.parse(words).status != 0, "\(words)")
        }
        #expect(
            Self.shellWords(#"$ delayboxctl config set channels.0.name "City Radio"  # a comment"#)
                == ["$", "delayboxctl", "config", "set", "channels.0.name", "City Radio"])
        #expect(
            Self.shellWords("delayboxctl --generate-completion-script bash > /etc/x") == [
                "delayboxctl", "--generate-completion-script", "bash",
            ])
    }
}
