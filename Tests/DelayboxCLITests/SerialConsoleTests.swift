import DelayboxAnswers
import DelayboxApp
import DelayboxSimulation
import DelayboxTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The serial console of a running `delaybox run`, through a real pseudo-terminal pair,
/// driven the way a terminal program drives it: bytes in, screen bytes out.
@Suite(.serialized, .timeLimit(.minutes(10))) struct SerialConsoleTests {
    /// A terminal program on the console's pseudo-terminal: raw mode, like picocom.
    final class Terminal {
        let fd: Int32
        init(path: String) throws {
            fd = open(path, O_RDWR | O_NOCTTY)
            guard fd >= 0 else { throw ExternalTool.Failed(description: "cannot open \(path)") }
            var settings = termios()
            tcgetattr(fd, &settings)
            cfmakeraw(&settings)
            tcsetattr(fd, TCSANOW, &settings)
        }
        deinit { close(fd) }

        /// Bytes the console wrote that nobody has read yet.
        var unread: Int {
            var count: Int32 = 0
            return ioctl(fd, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
        }

        func send(_ text: String) { send(Array(text.utf8)) }
        func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }

        /// Screen output until `text` appears (or `timeout` passes).
        func read(until text: String, timeout: Double = 3) -> String {
            var screen: [UInt8] = []
            let deadline = Date().addingTimeInterval(timeout)
            repeat {
                var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&descriptor, 1, timeout == 0 ? 0 : 50) > 0 else { continue }
                var buffer = [UInt8](repeating: 0, count: 4_096)
                let count = Glibc.read(fd, &buffer, buffer.count)
                if count > 0 { screen += buffer.prefix(count) }
                if String(decoding: screen, as: UTF8.self).contains(text) { break }
            } while Date() < deadline
            return String(decoding: screen, as: UTF8.self)
        }
    }

    func startAppliance(in directory: URL, seconds: Int = 20) throws -> (BoxUnderTest, Terminal) {
        // The simulated board's own output (out/delaybox.wav) goes to the box's directory.
        let box = try BoxUnderTest(
            executables: BoxUnderTest.debugBuild(root: CommandLineTests.root), in: directory,
            arguments: ["--seconds", String(seconds)]
        ) { _ in "extends: \(CommandLineTests.root.appendingPathComponent("board-configs/simulated-host.yaml").path)\n"
        }
        let path = Eventually.value(within: 10, every: 0.05) {
            box.log.range(of: "console on ").map { String(box.log[$0.upperBound...].prefix { $0 != " " }) }
        }
        guard let path else {
            throw ExternalTool.Failed(description: "no console line in the log: \(box.log)")
        }
        return (box, try Terminal(path: path))
    }

    /// SIGTERM, and it must be gone within 2 s (a console stuck on a full line must not
    /// hold it); otherwise SIGKILL and a failure.
    func stop(_ box: BoxUnderTest) {
        if !box.process.stop(within: 2) { Issue.record("still running 2 s after SIGTERM") }
    }

    @Test func commandsAreAnsweredAndTheDelayChanges() throws {
        let directory = try ExternalTool.temporaryDirectory("console")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (box, terminal) = try startAppliance(in: directory)
        defer { stop(box) }
        _ = terminal.read(until: "playing", timeout: 8)
        terminal.send("version\r")
        #expect(terminal.read(until: "version: 0.1.0").contains("version: 0.1.0"))
        terminal.send("delay 2\r")
        let set = terminal.read(until: "state:")
        #expect(set.contains("result: ok") && set.contains("delay_ms: 2000"), "\(set)")
        terminal.send("status --json\r")
        let json = terminal.read(until: "}")
        let line = try #require(json.split(separator: "\r\n").first { $0.hasPrefix("{") })
        let answer = try JSONDecoder().decode(StatusAnswer.self, from: Data(line.utf8))
        #expect(
            answer.delay.milliseconds == 2_000 && answer.channel == "Demo" && answer.volume == 50
                && answer.state == "playing",
            "\(line)")
        terminal.send("dealy\r")
        #expect(terminal.read(until: "did you mean").contains("unknown command 'dealy'; did you mean 'delay'?"))
    }

    @Test func adsLogConfigAndAStatsWatchThatAnyKeyStops() throws {
        let directory = try ExternalTool.temporaryDirectory("console-more")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (box, terminal) = try startAppliance(in: directory)
        defer { stop(box) }
        _ = terminal.read(until: "delaybox> ", timeout: 5)
        terminal.send("ads off\r")
        #expect(terminal.read(until: "result: ok").contains("result: ok"))
        terminal.send("ads\r")
        #expect(terminal.read(until: "ads: ").contains("ads: off"))
        terminal.send("log level debug\r")
        #expect(terminal.read(until: "log_level").contains("log_level: debug"))
        terminal.send("log tail 50\r")
        #expect(terminal.read(until: "delaybox.console").contains("delaybox.console: console on"))
        terminal.send("config show\r")
        #expect(terminal.read(until: "console: ").contains("board: Simulated host"))
        terminal.send("stats watch\r")
        let watched = terminal.read(until: "ms", timeout: 4) + terminal.read(until: "\u{0}", timeout: 2.2)
        #expect(watched.contains("delay error ") && watched.contains("▁"), "\(watched)")
        terminal.send("x")
        #expect(terminal.read(until: "delaybox> ", timeout: 3).hasSuffix("delaybox> "), "any key stops the watch")
        terminal.send("version\r")
        #expect(terminal.read(until: "version: ").contains("version: 0.1.0"))
    }

    @Test func aLogLineWhileTypingIsPrintedAboveAndTheLineRedrawn() throws {
        let directory = try ExternalTool.temporaryDirectory("console-redraw")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (box, terminal) = try startAppliance(in: directory)
        defer { stop(box) }
        _ = terminal.read(until: "delaybox> ", timeout: 5)
        terminal.send("stat")
        // The available delay is reported every second: a log line arrives while we type.
        let screen =
            terminal.read(until: "available delay", timeout: 4) + terminal.read(until: "delaybox> stat", timeout: 2)
        #expect(
            screen.contains("\r\u{1B}[Kavailable delay:") && screen.hasSuffix("delaybox> stat"),
            "\(screen.debugDescription)")
        terminal.send("us\r")
        #expect(terminal.read(until: "uptime_s").contains("state: "), "the line typed across the redraw is whole")
    }

    @Test func garbageOnTheLineNeverStopsTheConsole() throws {
        let directory = try ExternalTool.temporaryDirectory("console-garbage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (box, terminal) = try startAppliance(in: directory, seconds: 60)
        defer { stop(box) }
        _ = terminal.read(until: "delaybox> ", timeout: 5)
        var random = SplitMix64(seed: 99)
        for _ in 0..<1_000 {
            terminal.send(
                (0..<Int.random(in: 1...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) })
            _ = terminal.read(until: "\u{0}never", timeout: 0)  // a terminal program keeps reading what comes
        }
        terminal.send("\u{3}version\r")
        #expect(terminal.read(until: "version: 0.1.0", timeout: 10).contains("version: 0.1.0"), "still answering")
        #expect(box.process.isRunning)
    }

    @Test func aTerminalThatStopsReadingHoldsNothingUp() throws {
        let directory = try ExternalTool.temporaryDirectory("console-stuck")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (box, terminal) = try startAppliance(in: directory, seconds: 60)
        var random = SplitMix64(seed: 3)
        // Typing that makes the console answer a lot, and nobody reading the answers.
        for _ in 0..<3_000 { terminal.send((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) } + [13]) }
        stop(box)  // asserts it is gone within 2 s of SIGTERM
        #expect(!box.process.diedOfSignal)
    }

    /// A terminal that sends a backlog of commands the playout thread must answer, and
    /// reads none of the answers: SIGTERM still ends the appliance within a second, with
    /// its settings saved (the backlog is not worked through at two seconds a line).
    @Test func aFloodOfCommandsNeverHoldsUpTheStop() throws {
        let directory = try ExternalTool.temporaryDirectory("console-flood")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (box, terminal) = try startAppliance(in: directory, seconds: 60)
        _ = terminal.read(until: "playing", timeout: 8)
        terminal.send("delay 1.5\r")
        #expect(terminal.read(until: "delay_ms: 1500").contains("delay_ms: 1500"))
        // As many lines as the line takes without waiting: far more than the console
        // answers in the second before the stop.
        _ = fcntl(terminal.fd, F_SETFL, fcntl(terminal.fd, F_GETFL) | O_NONBLOCK)
        var sent = 0
        for _ in 0..<5_000 where write(terminal.fd, "status\r", 7) == 7 { sent += 1 }
        #expect(sent >= 100, "\(sent) lines queued")
        // The stop comes while the console works through the backlog: its answers pile up unread.
        #expect(Eventually.holds(within: 10) { terminal.unread >= 2_048 }, "\(terminal.unread) bytes answered")
        let asked = Date()
        box.process.stop(within: 5)
        let took = Date().timeIntervalSince(asked)
        #expect(took < 1, "exited \(took) s after SIGTERM")
        #expect(!box.process.diedOfSignal && box.process.terminationStatus == 0)
        #expect(box.log.contains("settings saved"), "\(box.log)")
        let saved = try String(contentsOf: box.stateFile, encoding: .utf8)
        #expect(saved.contains("\"delayMs\" : 1500"), "\(saved)")
    }
}
