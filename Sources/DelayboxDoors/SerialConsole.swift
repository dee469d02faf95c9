import DelayboxConsole
import DelayboxJSON
import DelayboxPlatform
import DelayboxSerial
import DelayboxUnits
import FoundationEssentials
import Synchronization

/// The serial console's thread: bytes from the line go through the line editor; each
/// finished line is parsed and answered (help and version here, the rest by the playout
/// thread through the inbox); log lines are printed above the line being typed.
final class SerialConsole: Sendable {
    private let port: SerialPort
    private let inbox: ConsoleInbox
    private let logLines = Mutex<[String]>([])
    private let worker = WorkerThread(name: "delaybox-console")
    private let channels: [String]
    /// The firmware's version, for the greeting.
    private let version: String

    init(port: SerialPort, inbox: ConsoleInbox, channels: [String], version: String) {
        self.port = port
        self.inbox = inbox
        self.channels = channels
        self.version = version
    }

    func start() { worker.start { [self] in run() } }

    func stop() { worker.stop(interrupt: port.wake) }

    /// Queues a log line for the console (printed above the prompt).
    func show(_ line: String) {
        logLines.withLock { $0.append(line) }
        port.wake()
    }

    private func run() {
        let channels = self.channels
        var editor = LineEditor(completer: { ConsoleLanguage.completions(for: $0, channels: channels) })
        port.write(Array("Delaybox \(version) console; 'help' lists the commands.\r\n".utf8) + editor.promptBytes())
        while !worker.isStopRequested {
            // Bytes, a log line to show or a stop end the wait: no polling while idle.
            let bytes = port.read(.forever)
            for line in logLines.withLock({ lines in
                defer { lines.removeAll() }; return lines
            }) {
                port.write(editor.printAbove(line))
            }
            guard !bytes.isEmpty else { continue }
            let output = editor.feed(bytes)
            port.write(output.screen)
            if let first = output.messages.first {
                let more = output.messages.count > 1 ? " (and \(output.messages.count - 1) more)" : ""
                port.write(editor.printAbove("console: " + first + more))
            }
            // A backlog of lines is not worked through once the appliance stops.
            for line in output.lines where !worker.isStopRequested {
                if case .success(let request)? = ConsoleLanguage.parse(line), request.action == .stats(watch: true) {
                    watchStatistics()
                } else if let answer = inbox.answer(line: line) {
                    let text = answer.reply.rendered(json: answer.json)
                    if !text.isEmpty { port.write(Array((text.replacing("\n", with: "\r\n") + "\r\n").utf8)) }
                }
                port.write(editor.promptBytes())
            }
        }
    }

    /// `stats watch`: once a second, the buffer fill and the delay error as sparklines on
    /// one redrawn line, until any key.
    private func watchStatistics() {
        port.write(Array("buffer fill and delay error, once a second; any key stops\r\n".utf8))
        var buffer: [Double] = [], errors: [Double] = []
        while !worker.isStopRequested, port.read(.atMost(.seconds(1))).isEmpty {
            guard let reply = inbox.ask(ConsoleRequest(.stats(watch: false))),
                let fill = reply.fields["buffer_ms"]?.number, let error = reply.fields["delay_error_ms"]?.number
            else { continue }
            buffer = Array((buffer + [fill / 1000]).suffix(30))
            errors = Array((errors + [error]).suffix(30))
            let line =
                "buffer " + Sparkline.render(buffer) + String(printf: " %6.1f s   delay error ", fill / 1000)
                + Sparkline.render(errors) + String(printf: " %6.1f ms", error)
            port.write(Array(("\r\u{1B}[K" + line).utf8))
        }
        port.write(Array("\r\n".utf8))
    }
}
