import DelayboxConfig
import DelayboxConsole
import DelayboxJSON
import DelayboxPlatform
import DelayboxWeb
import Dispatch
import Synchronization

/// Console requests waiting for the playout thread, which owns the engine and answers
/// them between two periods; the asking thread (console, control socket) waits for the
/// answer with a timeout, so a stuck appliance cannot hang a door. Once the appliance
/// stops it closes the inbox: what waits and what comes after is answered at once, so a
/// door with a backlog of lines (a terminal flooding the console) cannot hold up the exit
/// by two seconds a line.
public final class ConsoleInbox: Sendable {
    public final class Pending: Sendable {
        public let request: ConsoleRequest
        private let given = Mutex<ConsoleReply?>(nil)
        private let answered = DispatchSemaphore(value: 0)

        init(_ request: ConsoleRequest) { self.request = request }

        public func reply(_ reply: ConsoleReply) {
            given.withLock { $0 = reply }
            answered.signal()
        }

        /// The reply, once given.
        public var answer: ConsoleReply? { given.withLock { $0 } }

        func wait(seconds: Double) -> ConsoleReply? {
            guard answered.wait(timeout: .now() + seconds) == .success else { return nil }
            return answer
        }
    }

    /// Wakes the playout thread (the panel's and the remote's inboxes ring it too).
    public let ring: @Sendable () -> Void
    /// The web page's password, which `web` lines set and forget here, on the asking door's
    /// thread; nil: the box has no page.
    public let web: WebAccess?

    /// - Parameters:
    ///   - ring: called after each request is left, to wake the playout thread.
    ///   - web: the web page's password; nil: no page.
    public init(ring: @escaping @Sendable () -> Void = {}, web: WebAccess? = nil) {
        self.ring = ring
        self.web = web
    }

    /// The requests waiting, or nil once closed.
    private let pending = Mutex<[Pending]?>([])

    /// The answer to every request once the appliance is stopping.
    static let stopping = ConsoleReply.refusal(.unavailable, "the appliance is stopping")

    /// What a door says when the playout thread did not answer `request` in time.
    static func notAnswered(_ request: ConsoleRequest) -> ConsoleReply {
        .refusal(.unavailable, "the appliance did not answer within \(Int(request.patienceSeconds)) s")
    }

    /// Asks the playout thread; nil if it did not answer within the request's patience.
    func ask(_ request: ConsoleRequest) -> ConsoleReply? {
        guard let item = post(request) else { return Self.stopping }
        return item.wait(seconds: request.patienceSeconds)
    }

    /// Leaves `request` for the playout thread without waiting for its answer; nil once closed.
    public func post(_ request: ConsoleRequest) -> Pending? {
        let item = Pending(request)
        let posted = pending.withLock { items in
            items?.append(item)
            return items == nil ? nil : item
        }
        if posted != nil { ring() }
        return posted
    }

    /// A request answered at once with `stopping`, for a door that asked a closed inbox.
    static func stopped(_ request: ConsoleRequest) -> Pending {
        let item = Pending(request)
        item.reply(stopping)
        return item
    }

    /// Answers what waits, and from now on every request, with `stopping`.
    public func close() {
        for item in pending.withLock({ items in
            defer { items = nil }; return items ?? []
        }) { item.reply(Self.stopping) }
    }

    /// The reply to one console line, as both doors (serial console, control socket) give
    /// it, with whether it was asked in JSON: help and the web password here, everything
    /// else from the playout thread; nil for an empty line.
    func answer(line: String) -> (reply: ConsoleReply, json: Bool)? {
        switch ConsoleLanguage.parse(line) {
        case nil: return nil
        case .failure(let error)?: return (.usage(error), false)
        case .success(let request)?:
            switch request.action {
            case .help(let topic): return (ConsoleLanguage.helpReply(topic), request.json)
            case .web, .webPassword, .webReset: return (answerWeb(request), request.json)
            default: return (ask(request) ?? Self.notAnswered(request), request.json)
            }
        }
    }

    /// `web`, `web password`, `web reset`: the page's password, kept by the door that asks
    /// (hashing would hold the playout thread up for tens of milliseconds).
    private func answerWeb(_ request: ConsoleRequest) -> ConsoleReply {
        guard let web else { return .refusal(.unavailable, "this box has no web page (no 'web:' in its board config)") }
        let now = SystemClock.monotonicNow()
        let answer: WebPasswordAnswer
        switch request.action {
        case .webPassword(let password):
            if let problem = web.set(password: password) { return .refusal(.refused, problem) }
            answer = WebPasswordAnswer(result: "ok", password: "set: every browser logs in again")
        case .webReset:
            if let problem = web.reset(now: now) { return .refusal(.unavailable, problem) }
            answer = WebPasswordAnswer(result: "ok", password: "none: the page lets one be chosen for 30 min")
        default:
            let set = web.passwords.storedHash() != nil
            answer = WebPasswordAnswer(
                password: set ? "set" : "none", setupLeftS: set ? nil : web.setupLeft(now: now).wholeSeconds)
        }
        return .answer(answer)
    }

    /// The requests waiting, for the playout thread.
    public func drain() -> [Pending] {
        pending.withLock { items in
            defer { items?.removeAll(keepingCapacity: true) }
            return items ?? []
        }
    }
}
