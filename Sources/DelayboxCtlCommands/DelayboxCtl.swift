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
/// socket. Exit status: 0 done, 1 refused or failed (the answer says why), 2 a bad
/// argument, 3 the appliance cannot be reached.
struct DelayboxCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delayboxctl",
        abstract: "Control a running Delaybox from the shell.",
        discussion:
            "Exit status: 0 done, 1 refused, 2 bad argument, 3 the appliance cannot be reached. See docs/console.md.",
        subcommands: [
            Status.self, Delay.self, Volume.self, Pause.self, Resume.self, Mute.self, Preset.self,
            ChannelCommand.self, Ads.self, Stats.self, Events.self, Log.self, ConfigCommand.self, Tone.self, Board.self,
            GPIO.self, Remote.self, Web.self, System.self, Update.self, Version.self, Group.self,
        ])

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

    static func exchange(_ line: String, socket path: String) throws -> String {
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
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = Array((line + "\n").utf8)
        guard request.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == request.count else {
            throw Unreachable(description: "the appliance closed the connection")
        }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count <= 0 { break }
            answer += buffer.prefix(count)
        }
        guard !answer.isEmpty else { throw Unreachable(description: "the appliance did not answer") }
        return String(decoding: answer, as: UTF8.self)
    }
}

struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "State, channel, delay set and available, volume, buffer, now playing, uptime.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["status"]) }
}

struct Delay: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set the delay: 45, 45s, 1.5min, +0.5, -1, live.")
    @OptionGroup var connection: Connection
    // All unrecognised inputs: `-1` is an adjustment, not an option.
    @Argument(parsing: .allUnrecognized, help: "The delay (seconds unless a unit is given), +/- to adjust, or live.")
    var value: [String] = []
    func validate() throws { try Connection.requireAtMostOne(value, for: "delay") }
    func run() throws { try connection.send(["delay"] + value) }
}

struct Volume: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show or set the volume: 0-100, +N, -N.")
    @OptionGroup var connection: Connection
    // All unrecognised inputs: `-5` is an adjustment, not an option.
    @Argument(parsing: .allUnrecognized, help: "0-100, +N or -N.") var value: [String] = []
    func validate() throws { try Connection.requireAtMostOne(value, for: "volume") }
    func run() throws { try connection.send(["volume"] + value) }
}

struct Pause: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Hold playout; recording goes on.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["pause"]) }
}

struct Resume: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Play on from where it was held.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["resume"]) }
}

struct Mute: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Mute or unmute.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["mute"]) }
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

struct ChannelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "channel", abstract: "List the channels, or switch to one (a name, or next).")
    @OptionGroup var connection: Connection
    @Argument(help: "The channel's name, or next; none lists them.") var name: [String] = []
    func run() throws { try connection.send(["channel"] + (name.isEmpty ? ["list"] : name)) }
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

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The log: its level, its last lines, its last hour.",
        subcommands: [Level.self, Tail.self, Hour.self])

    struct Level: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show or set the level of every logger, live.")
        @OptionGroup var connection: Connection
        @Argument(help: "trace, debug, info, notice, warning, error or critical.") var level: String?
        func run() throws { try connection.send(["log", "level"] + (level.map { [$0] } ?? [])) }
    }

    struct Tail: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The last log lines (default 20, up to 200).")
        @OptionGroup var connection: Connection
        @Argument(help: "How many lines.") var count: Int?
        func run() throws { try connection.send(["log", "tail"] + (count.map { [String($0)] } ?? [])) }
    }

    struct Hour: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The last hour's log lines, each with its local time.")
        @OptionGroup var connection: Connection
        func run() throws { try connection.send(["log", "hour"]) }
    }
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

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Buffer, delay error, underruns, reconnects, splices, audio lost, resyncs, xruns, CPU, memory.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["stats"]) }
}

struct Events: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The last stream events that took effect.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["events"]) }
}

struct Board: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The board: audio device, mixer, buttons and encoder lines; the shipped boards; choose one.",
        discussion: """
            delayboxctl board               the board this box runs
            delayboxctl board list          the shipped boards, the one the HAT names marked
            delayboxctl board use NAME      this box's board from now on: the box restarts on it
            """)
    @OptionGroup var connection: Connection
    @Argument(help: "list, or use NAME; nothing: the board this box runs.") var request: [String] = []
    func validate() throws {
        guard request.isEmpty || request == ["list"] || (request.first == "use" && request.count == 2) else {
            throw ValidationError("board takes nothing, list or use NAME")
        }
    }
    func run() throws { try connection.send(["board"] + request) }
}

struct Group: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The boxes of this box's venue group (mqtt.group); the same delay or channel for all of them.",
        discussion: """
            delayboxctl group                 the group's other boxes as last heard: state, delay, channel
            delayboxctl group delay 30        every box of the group at 30 s (+2, -0.5, live: as delay takes them)
            delayboxctl group channel NAME    every box of the group on channel NAME (or next)
            """)
    @OptionGroup var connection: Connection
    // All unrecognised inputs: a delay may be negative (`group delay -2`).
    @Argument(parsing: .allUnrecognized, help: "delay SECONDS or channel NAME.") var request: [String] = []
    func validate() throws {
        guard request.isEmpty || (request.count >= 2 && ["delay", "channel"].contains(request[0])) else {
            throw ValidationError("group takes nothing, delay SECONDS or channel NAME")
        }
    }
    func run() throws { try connection.send(["group"] + request) }
}

struct GPIO: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gpio", abstract: "The input lines: level, pressed or released, edges seen.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["gpio"]) }
}

struct Remote: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The remote: its input device, the keys it sent and what they do.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["remote"]) }
}

struct Update: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Update Delaybox from the box's apt sources (checked after, and rolled back if it does not play).",
        discussion: "`status` says how it goes (release). See docs/deploy.md.")
    @OptionGroup var connection: Connection
    @Argument(help: "Exactly this release (e.g. 1.4.0-1~deb13); none: the newest.") var version: String?
    func run() throws { try connection.send(["update"] + (version.map { [$0] } ?? [])) }
}

struct System: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The machine: addresses, Wi-Fi signal and missed beacons, CPU temperature, uptime.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["system"]) }
}

struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The appliance's firmware version.")
    @OptionGroup var connection: Connection
    func run() throws { try connection.send(["version"]) }
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
