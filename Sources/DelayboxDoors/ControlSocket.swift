import DelayboxConsole
import DelayboxPlatform
import DelayboxSystem
import DelayboxUnits
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The console language on a local Unix socket (mode 0600), for `delayboxctl`: one
/// request line per connection, answered and closed. Requests go through the same inbox
/// as the serial console's, so both doors behave alike. The answer's first line is its
/// kind (`ok`, `usage`, `refused`, `unavailable`: `delayboxctl`'s exit status), then the
/// console's text (docs/console.md, "The control socket").
final class ControlSocket: Sendable {
    let path: String
    private let listener: Int32
    private let inbox: ConsoleInbox
    private let worker = WorkerThread(name: "delaybox-control")
    static let maxRequestBytes = 1_024

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    init(path: String, inbox: ConsoleInbox) throws {
        self.path = path
        self.inbox = inbox
        unlink(path)  // a socket left by a crash
        guard let target = sockaddr_un.unix(path) else {
            throw Failed(description: "cannot create the control socket \(path): the path is too long for a socket")
        }
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else {
            throw Failed(description: "cannot create the control socket \(path): \(ErrorText.system(errno))")
        }
        var address = target.address
        let length = target.length
        let previous = umask(0o177)  // 0600 from the start, not after a window
        defer { umask(previous) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        guard bound == 0, listen(listener, 8) == 0 else {
            let why = ErrorText.system(errno)
            close(listener)
            throw Failed(description: "cannot listen on \(path): \(why)")
        }
        self.listener = listener
    }

    func start() { worker.start { [self] in run() } }

    /// Ends the thread's wait in `accept` by connecting to the socket itself, then closes it.
    func stop() {
        worker.stop { [path] in
            let knock = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard knock >= 0, let target = sockaddr_un.unix(path) else { return }
            var address = target.address
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(knock, $0, target.length) }
            }
            close(knock)
        }
        close(listener)
        unlink(path)
    }

    /// Sleeps in `accept` until a client connects: no wake-ups while nobody asks (it
    /// polled ten times a second before).
    private func run() {
        while !worker.isStopRequested {
            let accepted = accept(listener, nil, nil)
            guard accepted >= 0 else {
                // Out of descriptors, say: try again later rather than spin.
                if errno != EINTR { worker.wait(for: .milliseconds(100)) }
                continue
            }
            let client = FileDescriptor(adopting: accepted)
            defer { try? client.close() }
            guard !worker.isStopRequested else { return }
            serve(client)
        }
    }

    /// `reply` as the socket sends it: its kind on the first line, then the console's text.
    static func framed(_ reply: ConsoleReply, json: Bool) -> String {
        reply.kind.rawValue + "\n" + reply.rendered(json: json) + "\n"
    }

    /// Reads one line (up to 1 KiB, within 2 s on CLOCK_MONOTONIC), answers it; a client
    /// that went away before its answer is not waited for.
    private func serve(_ client: FileDescriptor) {
        var request: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        let deadline = SystemClock.monotonicNow() + .seconds(2)
        while !request.contains(UInt8(ascii: "\n")), request.count < Self.maxRequestBytes {
            let left = deadline - SystemClock.monotonicNow()
            guard left > .zero,
                let ready = try? client.wait(for: Int16(POLLIN), .atMost(left))
            else { break }
            guard !ready.isEmpty, let count = try? client.read(into: &buffer), count > 0 else { break }
            request += buffer.prefix(count)
        }
        let line = String(
            decoding: request.prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let answer = inbox.answer(line: line) ?? (.refusal(.usage, "empty request"), false)
        let reply = Self.framed(answer.reply, json: answer.json)
        try? client.sendAll(Array(reply.utf8))
    }
}
