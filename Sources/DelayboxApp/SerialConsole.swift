import DelayboxConsole
import DelayboxSerial
import Foundation
import Synchronization

/// The serial console's thread: bytes from the line go through the line editor; each
/// finished line is parsed and answered (help and version here, the rest by the playout
/// thread through the inbox); log lines are printed above the line being typed.
final class SerialConsole: Sendable {
    private let port: SerialPort
    private let inbox: ConsoleInbox
    private let logLines = Mutex<[String]>([])
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let channels: [String]

    init(port: SerialPort, inbox: ConsoleInbox, channels: [String]) {
        self.port = port
        self.inbox = inbox
        self.channels = channels
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "delaybox-console"
        thread.start()
    }

    func stop() {
        stopRequested.store(true, ordering: .releasing)
        finished.wait()
    }

    /// Queues a log line for the console (printed above the prompt).
    func show(_ line: String) { logLines.withLock { $0.append(line) } }

    private func run() {
        let channels = self.channels
        var editor = LineEditor(completer: { ConsoleLanguage.completions(for: $0, channels: channels) })
        port.write(Array("Delaybox \(DelayboxVersion.string) console; 'help' lists the commands.\r\n".utf8) + editor.promptBytes())
        while !stopRequested.load(ordering: .acquiring) {
            let bytes = port.read(timeoutMs: 100)
            for line in logLines.withLock({ lines in defer { lines.removeAll() }; return lines }) {
                port.write(editor.printAbove(line))
            }
            guard !bytes.isEmpty else { continue }
            let output = editor.feed(bytes)
            port.write(output.screen)
            if let first = output.messages.first {
                let more = output.messages.count > 1 ? " (and \(output.messages.count - 1) more)" : ""
                port.write(editor.printAbove("console: " + first + more))
            }
            for line in output.lines {
                if let answer = inbox.answer(line: line), !answer.isEmpty {
                    port.write(Array((answer.replacingOccurrences(of: "\n", with: "\r\n") + "\r\n").utf8))
                }
                port.write(editor.promptBytes())
            }
        }
    }
}
