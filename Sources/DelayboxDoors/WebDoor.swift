import DelayboxConsole
import DelayboxJSON
import DelayboxLog
import DelayboxMicroHTTPD
import DelayboxPlatform
import DelayboxUnits
import DelayboxWeb

/// The page on the box (docs/web.md): libmicrohttpd serving `WebApp`, whose changes are
/// console lines through the console inbox — one language, one set of checks — and whose
/// status streams are fed by this door's thread (`delaybox-web`) from the playout
/// thread's answers, only while a page is open.
final class WebDoor: Sendable {
    private let server: WebServer
    private let feed: WebStatusFeed
    private let inbox: ConsoleInbox
    private let worker = WorkerThread(name: "delaybox-web")
    private let logger = Logger(label: "delaybox.web")

    /// The box's answers to the web app: the playout thread's, through the inbox.
    private struct Box: WebBox {
        let inbox: ConsoleInbox
        func ask(_ request: ConsoleRequest) -> ConsoleReply? { inbox.ask(request) }
    }

    /// Listens on `port` (or on the socket systemd passed) and serves.
    /// - Parameter access: the password, and when the page may choose the first one.
    init(port: Int, inbox: ConsoleInbox, access: WebAccess) throws {
        self.inbox = inbox
        let app = WebApp(box: Box(inbox: inbox), access: access, random: PasswordHashing.randomBytes)
        let worker = worker
        let feed = WebStatusFeed(opened: { worker.wake() })
        self.feed = feed
        server = try WebServer(
            socket: WebServer.listeningSocket(port: port),
            handlers: .init(
                respond: { app.handle($0, now: SystemClock.monotonicNow()) }, stream: { feed.open(network: $0.network) }
            ))
    }

    var port: Int { server.port }

    func start() { worker.start { [self] in run() } }

    /// The status changed: open pages get it now.
    func stateChanged() { if feed.hasStreams { worker.wake() } }

    func stop() {
        feed.stop()
        worker.stop()
        server.stop()
    }

    /// While a page is open: the status at each change and every second (the buffer and
    /// the heard delay move continuously); with none open, asleep until one opens.
    private func run() {
        while !worker.isStopRequested {
            guard feed.hasStreams else {
                worker.wait(for: .hours(1))
                continue
            }
            if let status = inbox.ask(ConsoleRequest(.status)), status.kind == .ok {
                feed.publish(JSONText.encode(status.fields))
            }
            worker.wait(for: .seconds(1))
        }
    }
}
