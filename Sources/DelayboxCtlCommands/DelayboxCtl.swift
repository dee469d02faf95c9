import ArgumentParser
import DelayboxConsole
import DelayboxSystem

// No Foundation: a socket client needs none, and without it (and ICU's data) the program
// is a few MB instead of 59 (issue 23). ArgumentParser brings FoundationEssentials only.
#if canImport(Glibc)
    import Glibc
#endif

/// `delayboxctl` as a program runs it: the `delayboxctl` executable, and `delaybox` when
/// called by that name (the package installs one program and a link to it).
public enum DelayboxCtlProgram {
    public static func main() { DelayboxCtl.main() }
}

/// `delayboxctl`: the console's commands from a shell, through the appliance's control
/// socket. The commands are the console language's own (`ConsoleLanguage.commands`, sent as
/// a line by `Line`); a few have a shell's form too (`preset --save`, `config` alone, the
/// password read without echo). Exit status: 0 done, 1 refused or failed (the answer says
/// why), 2 a bad argument, 3 the appliance cannot be reached, 64 a usage error caught here.
struct DelayboxCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delayboxctl",
        abstract: "Control a running Delaybox from the shell.",
        discussion: Line.commandList
            + "\n\nExit status: 0 done, 1 refused, 2 bad argument, 3 the appliance cannot be reached. See docs/console.md.",
        subcommands: [Line.self, Preset.self, Ads.self, ConfigCommand.self, Tone.self, Web.self],
        defaultSubcommand: Line.self)

    /// Users put the connection's options first (`delayboxctl --socket PATH status`), as
    /// with most tools; the parser takes a subcommand's options after its name. With
    /// `DELAYBOX_PARSE_ONLY` set, parses the command line and stops (`make test` checks the
    /// command lines in the docs so).
    static func main() {
        let arguments = Connection.movedAfterTheSubcommand(Array(CommandLine.arguments.dropFirst()))
        guard getenv("DELAYBOX_PARSE_ONLY") != nil else { return main(arguments) }
        do { _ = try parseAsRoot(arguments) } catch { exit(withError: error) }
    }
}

struct Connection: ParsableArguments {
    @Option(name: .long, help: "The control socket.")
    var socket: String = getenv("DELAYBOX_SOCKET").map { String(cString: $0) } ?? "/run/delaybox/control.sock"

    @Flag(name: .long, help: "Answer in JSON.")
    var json = false

    /// `arguments` with the connection's options that come before the subcommand moved
    /// to the end, where the subcommand's parser takes them.
    static func movedAfterTheSubcommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first == "--json" || first.hasPrefix("--socket=") {
                leading.append(first)
                rest = rest.dropFirst()
            } else if first == "--socket", rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        return Array(rest) + leading
    }

    /// A value argument that takes whatever is left (so that `-1` is a value) holds at
    /// most one.
    static func requireAtMostOne(_ values: [String], for command: String) throws {
        guard values.count <= 1 else {
            throw ValidationError("\(command) takes one value: \(values.joined(separator: " "))")
        }
    }

    /// Sends one console line and prints the answer; exits by what it says.
    func send(_ words: [String]) throws {
        let line = (words + (json ? ["--json"] : [])).joined(separator: " ")
        let answer: String
        do {
            answer = try Self.exchange(line, socket: socket)
        } catch {
            Self.writeError("delayboxctl: \(error)\n")
            throw ExitCode(3)
        }
        let (kind, text) = Self.unframed(answer)
        guard kind == .ok else {
            Self.writeError(text + "\n")
            throw ExitCode(kind == .usage ? 2 : 1)
        }
        print(text)
    }

    /// The socket's answer as its kind (the first line) and the console's text; an answer
    /// without a kind it knows is a failure, shown whole.
    static func unframed(_ answer: String) -> (kind: ConsoleReply.Kind, text: String) {
        let body = answer.hasSuffix("\n") ? answer.dropLast() : answer[...]
        guard let end = body.firstIndex(of: "\n"), let kind = ConsoleReply.Kind(rawValue: String(body[..<end])) else {
            return (.unavailable, String(body))
        }
        return (kind, String(body[body.index(after: end)...]))
    }

    /// Writes `text` to standard error (descriptor 2, unbuffered).
    static func writeError(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    struct Unreachable: Error, CustomStringConvertible {
        var description: String
    }

    /// The longest answer read (bytes): an hour of log lines is far less. A service that
    /// sends more, or trickles, is not waited for past `answerSeconds`: root's updater asks
    /// it, and must not be held by it.
    static let maximumAnswerBytes = 4 << 20
    static let answerSeconds = 30

    /// Nil when root may talk to the socket at `path`: the socket itself (not a link to
    /// one), in a real directory (not a link) that root or the socket's owner owns and no
    /// one else may write to. A local user cannot then put their own answer in root's way.
    static func socketProblem(_ path: String) -> String? {
        let directory = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var info = stat()
        guard lstat(directory.isEmpty ? "/" : directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            return "\(directory) is not a directory (a link, or missing)"
        }
        let directoryOwner = info.st_uid
        guard info.st_mode & (S_IWGRP | S_IWOTH) == 0 || info.st_mode & S_ISVTX != 0 && directoryOwner == 0 else {
            return "\(directory) may be written by others"
        }
        // (None there: connecting says so, as to anyone.)
        guard lstat(path, &info) == 0 else { return nil }
        guard info.st_mode & S_IFMT == S_IFSOCK else { return "\(path) is not a socket (a link, or a file)" }
        guard directoryOwner == 0 || directoryOwner == info.st_uid else {
            return "\(path) is not its directory's owner's"
        }
        return nil
    }

    static func exchange(_ line: String, socket path: String) throws -> String {
        if geteuid() == 0, let problem = socketProblem(path) {
            throw Unreachable(description: "root does not talk to \(path): \(problem)")
        }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Unreachable(description: "cannot create a socket") }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard path.utf8.count < 108 else { throw Unreachable(description: "socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            throw Unreachable(
                description:
                    "cannot reach the appliance at \(path): \(Errno.current) (is delaybox running? `systemctl status delaybox`)"
            )
        }
        // The appliance answers once the command is done: a venue change waits for root's
        // helper (the request's patience), so the reads wait as long, and a little more.
        let patience = (try? ConsoleLanguage.parse(line)?.get()).map { Int($0.patienceSeconds) } ?? 2
        var timeout = timeval(tv_sec: max(5, patience + 3), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array((line + "\n").utf8)
        guard request.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == request.count else {
            throw Unreachable(description: "the appliance closed the connection")
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let deadline = time(nil) + max(answerSeconds, patience + 5)
        while answer.count < maximumAnswerBytes, time(nil) < deadline {
            let count = read(fd, &buffer, min(buffer.count, maximumAnswerBytes - answer.count))
            if count <= 0 { break }
            answer += buffer.prefix(count)
        }
        guard !answer.isEmpty else { throw Unreachable(description: "the appliance did not answer") }
        return String(decoding: answer, as: UTF8.self)
    }
}

/// A line of the console's language as typed (`delayboxctl delay -1`, `delayboxctl log tail
/// 50`): the default subcommand, so that every command of the language — one list,
/// `ConsoleLanguage`'s — is a `delayboxctl` command without a type of its own here.
struct Line: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A console command and its arguments; the default: delayboxctl COMMAND ARGUMENTS.",
        discussion: commandList)
    @OptionGroup var connection: Connection
    // All unrecognised inputs: `-1` is an adjustment, not an option.
    @Argument(
        parsing: .allUnrecognized, help: "The command and its arguments, as at the console.",
        completion: .list(ConsoleLanguage.commands.map(\.name)))
    var words: [String] = []

    /// The language's commands by name, for `--help` (whose text is wrapped at 80 columns:
    /// what each does is `delayboxctl line help [NAME]`'s, the console's own help).
    static var commandList: String {
        "COMMAND is one of the console's (each also takes --json): "
            + ConsoleLanguage.commands.map(\.name).joined(separator: ", ")
            + ". `delayboxctl line help` says what each does, `delayboxctl line help NAME` how to use it."
    }

    func validate() throws {
        guard let name = words.first else { throw ValidationError("a command, e.g. status; --help lists them") }
        if let unknown = ConsoleLanguage.unknown(name) { throw ValidationError(unknown.description) }
    }

    /// `help [NAME]` is answered here, from the language itself: no box needed.
    func run() throws {
        guard words.first?.lowercased() == "help" else { return try connection.send(words) }
        switch ConsoleLanguage.help(words.dropFirst().first?.lowercased()) {
        case .success(let text): print(text)
        case .failure(let error):
            Connection.writeError(error.description + "\n")
            throw ExitCode(2)
        }
    }
}

struct Preset: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Recall a delay preset, or save the delay in force as one.")
    @OptionGroup var connection: Connection
    @Flag(name: .long, help: "Save instead of recall.") var save = false
    @Argument(help: "The preset, 1-9.") var slot: Int
    func validate() throws {
        guard (1...9).contains(slot) else { throw ValidationError("a preset is 1-9") }
    }
    func run() throws { try connection.send(["preset", save ? "save" : "recall", String(slot)]) }
}

struct Ads: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show, or set whether ad breaks play their ad (saved).")
    @OptionGroup var connection: Connection
    @Argument(help: "on or off.") var state: String?
    func validate() throws {
        if let state, state != "on", state != "off" { throw ValidationError("ads takes on or off") }
    }
    func run() throws { try connection.send(["ads"] + (state.map { [$0] } ?? [])) }
}

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "The running configuration; one value and where it was set; change and save values.",
        discussion: """
            delayboxctl config                  board, audio, channels, defaults, console
            delayboxctl config get KEY          e.g. audio.device, defaults.delay_step, channels.0.url
            delayboxctl config set KEY VALUE    checked, live at once
            delayboxctl config save             kept in config.yaml beside the state file
            """)
    @OptionGroup var connection: Connection
    // All unrecognised inputs: a value may be negative (`config set KEY -3`).
    @Argument(parsing: .allUnrecognized, help: "get KEY, set KEY VALUE, save, or nothing.") var request: [String] = []
    func validate() throws {
        let valid =
            switch request.first {
            case nil: true
            case "get": request.count == 2
            case "set": request.count >= 3
            case "save": request.count == 1
            default: false
            }
        guard valid else { throw ValidationError("config takes nothing, get KEY, set KEY VALUE or save") }
    }
    func run() throws { try connection.send(["config"] + (request.isEmpty ? ["show"] : request)) }
}

struct Tone: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "A 1 kHz test tone at -18 dBFS instead of the programme, or the programme again.")
    @OptionGroup var connection: Connection
    @Argument(help: "on or off.") var state: String
    func validate() throws {
        guard state == "on" || state == "off" else { throw ValidationError("tone takes on or off") }
    }
    func run() throws { try connection.send(["tone", state]) }
}

struct Web: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The web page's password: whether one is set, set one, or forget it.",
        discussion: """
            web password: reads the new password twice from the terminal, without echo, or once \
            from standard input when that is not a terminal (install.sh --web-password). \
            web reset: forgets it; the page lets one be chosen for the next 30 minutes. See docs/web.md.
            """)
    @OptionGroup var connection: Connection
    @Argument(help: "password or reset (nothing: whether one is set).") var action: String?

    func validate() throws {
        guard action == nil || action == "password" || action == "reset" else {
            throw ValidationError("web takes password or reset")
        }
    }

    func run() throws {
        switch action {
        case "password":
            let password = try PasswordPrompt.read()
            // Not with --json: the password is the rest of the line, exactly as typed.
            var plain = connection
            plain.json = false
            try plain.send(["web", "password", password])
        case let action?: try connection.send(["web", action])
        case nil: try connection.send(["web"])
        }
    }
}
