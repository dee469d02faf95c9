import DelayboxConfig
import DelayboxConsole
import DelayboxJSON
import DelayboxNetwork
import DelayboxUnits
import FoundationEssentials
import Synchronization

/// The web door's handling of a request (docs/web.md): the page and its assets, the
/// status (as JSON and as a stream) for anyone on the LAN, and — with a session only —
/// every change, as console lines through the console's language (one language, one set
/// of checks, the console's own answers and refusals). A session comes from the password
/// (`/api/login`); the first password may be chosen from the page in the first 30 minutes
/// after the board boots, a window that a power cycle (someone at the box) or a `web reset`
/// at the console opens again — never a restart of the service.
///
/// Every change (a POST) must come from the page itself: an `Origin` other than the box's
/// own, a cross-site fetch, or a missing `X-Delaybox-CSRF` header (which a page on
/// another site cannot send without the box's consent) is refused; with a session, the
/// header must be that session's token. Time is the caller's monotonic clock.
public final class WebApp: Sendable {
    /// How long after the start the first password may be chosen from the page.
    public static let setupWindow = TimeAmount.minutes(30)
    public static let cookieName = "delaybox_session"

    private struct State {
        var sessions = WebSessions()
        var throttle = LoginThrottle()
        /// `access.generation` when the sessions were last checked against it.
        var generation = 0
    }

    private let box: any WebBox
    private let access: WebAccess
    private var passwords: any PasswordStore { access.passwords }
    private let random: @Sendable (Int) -> [UInt8]
    private let state = Mutex(State())

    /// - Parameters:
    ///   - access: the password, and when the first one may be chosen here.
    ///   - random: `n` bytes from the system's secure random source.
    public init(box: any WebBox, access: WebAccess, random: @escaping @Sendable (Int) -> [UInt8]) {
        self.box = box
        self.access = access
        self.random = random
    }

    public func handle(_ request: WebRequest, now: Instant) -> WebResponse {
        let generation = access.generation
        state.withLock { state in
            // The password was set or removed elsewhere: every browser logs in again.
            if state.generation != generation { (state.sessions, state.generation) = (WebSessions(), generation) }
        }
        var response = route(request, now: now)
        response.headers += [
            ["X-Content-Type-Options", "nosniff"], ["Cache-Control", "no-store"], ["Referrer-Policy", "no-referrer"],
            ["X-Frame-Options", "DENY"],
        ]
        return response
    }

    private func route(_ request: WebRequest, now: Instant) -> WebResponse {
        guard let host = request.header("Host"), WebHost.isLocal(host) else {
            return WebResponse.error(
                "this box answers to its address or its .local name, not to '\((request.header("Host") ?? "").prefix(100))'",
                status: 421)
        }
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"): return WebAssets.page
        case ("GET", "/delaybox.css"): return WebAssets.style
        case ("GET", "/delaybox.js"): return WebAssets.script
        case ("GET", "/api/session"): return sessionState(request, now: now)
        case ("GET", "/api/status"): return consoleJSON(ConsoleRequest(.status, json: true))
        case ("GET", "/api/channels"): return consoleJSON(ConsoleRequest(.listChannels, json: true))
        case ("GET", "/api/journal"): return journal(request, now: now)
        case ("GET", "/api/backup"): return backup(request, now: now)
        case ("GET", "/api/events"):
            return WebResponse(
                status: 200, headers: [["Content-Type", "text/event-stream"], ["X-Accel-Buffering", "no"]],
                body: .statusEvents)
        case ("POST", let path) where Self.posts.contains(path):
            if let refusal = crossSiteRefusal(request) { return refusal }
            switch path {
            case "/api/login": return login(request, now: now)
            case "/api/password": return setPassword(request, now: now)
            case "/api/logout": return logout(request, now: now)
            case "/api/reset": return factoryReset(request, now: now)
            case "/api/restore": return restore(request, now: now)
            case "/api/backup": return sealedBackup(request, now: now)
            case "/api/venue/claim": return handOverJoinCode(request)
            default: return command(request, now: now)
            }
        case (_, let path) where Self.posts.contains(path) || Self.gets.contains(path):
            return WebResponse.error("\(request.method) is not how \(path) is used", status: 405)
        default:
            return WebResponse.error("no page \(request.path.prefix(100)) on this box", status: 404)
        }
    }

    private static let posts: Set<String> = [
        "/api/login", "/api/logout", "/api/password", "/api/command", "/api/reset", "/api/restore", "/api/backup",
        "/api/venue/claim",
    ]
    private static let gets: Set<String> = [
        "/", "/delaybox.css", "/delaybox.js", "/api/session", "/api/status", "/api/channels", "/api/events",
        "/api/journal", "/api/backup",
    ]

    /// The page's first question: is a password set, is this browser logged in (and its
    /// CSRF token), may the first password be chosen here, and for how much longer.
    private func sessionState(_ request: WebRequest, now: Instant) -> WebResponse {
        let session = state.withLock { $0.sessions.find(token: request.cookie(Self.cookieName), now: now) }
        let answer = WebAnswer(
            passwordSet: passwords.storedHash() != nil, loggedIn: session != nil,
            setupLeftS: access.setupLeft(now: now).wholeSeconds, csrf: session?.csrf)
        return WebResponse.json(answer.json)
    }

    /// Refuses a change that did not come from the box's own page.
    private func crossSiteRefusal(_ request: WebRequest) -> WebResponse? {
        if let site = request.header("Sec-Fetch-Site"), site != "same-origin", site != "none" {
            return WebResponse.error(
                "a change must come from the box's own page (this came from another site)", status: 403)
        }
        if let origin = request.header("Origin") {
            let host = request.header("Host") ?? ""
            guard origin == "http://" + host || origin == "https://" + host else {
                return WebResponse.error(
                    "a change must come from the box's own page (Origin \(origin.prefix(100)))", status: 403)
            }
        }
        guard let token = request.header("X-Delaybox-CSRF"), !token.isEmpty else {
            return WebResponse.error(
                "a change must come from the box's own page (no X-Delaybox-CSRF header)", status: 403)
        }
        return nil
    }

    /// The session the request's cookie names, when its CSRF header is that session's token.
    private func session(_ request: WebRequest, now: Instant) -> Result<WebSessions.Session, WebResponseError> {
        guard let session = state.withLock({ $0.sessions.find(token: request.cookie(Self.cookieName), now: now) })
        else {
            return .failure(WebResponseError(WebResponse.error("log in first", status: 401)))
        }
        guard request.header("X-Delaybox-CSRF") == session.csrf else {
            return .failure(
                WebResponseError(WebResponse.error("the page's token is stale: reload the page", status: 403)))
        }
        return .success(session)
    }

    private func login(_ request: WebRequest, now: Instant) -> WebResponse {
        if let wait = state.withLock({ $0.throttle.attempt(network: request.network, now: now) }) {
            let seconds = wait.secondsRoundedUp
            return WebResponse(
                status: 429, headers: [["Content-Type", "application/json"], ["Retry-After", "\(seconds)"]],
                body: .bytes(
                    Array(
                        WebAnswer(error: "too many wrong passwords: try again in \(Self.duration(seconds))").json.utf8))
            )
        }
        guard let hash = passwords.storedHash() else {
            state.withLock { $0.throttle.succeeded(network: request.network) }
            return WebResponse.error("no password is set yet: choose one first", status: 409)
        }
        let password = request.form["password"] ?? ""
        // Checked outside the lock: yescrypt takes tens of milliseconds on purpose. The
        // attempt already counts as a failure; a right password takes it back.
        guard passwords.matches(password, hash: hash) else {
            return WebResponse.error("wrong password", status: 401)
        }
        return opened(for: request.network, now: now)
    }

    /// A new session for a peer on `network`, its cookie set.
    private func opened(for network: String, now: Instant) -> WebResponse {
        let bytes = random(64)
        let session = state.withLock { state in
            state.throttle.succeeded(network: network)
            return state.sessions.open(random: bytes, now: now)
        }
        let cookie =
            "\(Self.cookieName)=\(session.token); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(WebSessions.idleLimit.wholeSeconds)"
        var response = WebResponse.json(WebAnswer(loggedIn: true, csrf: session.csrf).json)
        response.headers.append(["Set-Cookie", cookie])
        return response
    }

    private func logout(_ request: WebRequest, now: Instant) -> WebResponse {
        if case .success(let session) = session(request, now: now) {
            state.withLock { $0.sessions.close(token: session.token) }
        }
        var response = WebResponse.json(WebAnswer(loggedIn: false).json)
        response.headers.append(["Set-Cookie", "\(Self.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"])
        return response
    }

    /// The first password (in the setup window, no session needed), or a new one (with a
    /// session and the current password). Every other session ends; this browser's is new.
    private func setPassword(_ request: WebRequest, now: Instant) -> WebResponse {
        let form = request.form
        let new = form["new"] ?? ""
        if let hash = passwords.storedHash() {
            if case .failure(let refusal) = session(request, now: now) { return refusal.response }
            if let wait = state.withLock({ $0.throttle.attempt(network: request.network, now: now) }) {
                return WebResponse.error(
                    "too many wrong passwords: try again in \(Self.duration(wait.secondsRoundedUp))",
                    status: 429)
            }
            guard passwords.matches(form["current"] ?? "", hash: hash) else {
                return WebResponse.error("the current password is wrong", status: 401)
            }
            state.withLock { $0.throttle.succeeded(network: request.network) }
        } else if now - access.setupOpened >= Self.setupWindow {
            return WebResponse.error(
                "the first password is chosen here in the first 30 minutes after the box is switched on: "
                    + "unplug the box, plug it in again and reload this page", status: 403)
        }
        if let problem = access.problem(withNew: new) { return WebResponse.error(problem, status: 400) }
        guard let hash = passwords.makeHash(new) else {
            return WebResponse.error("the password could not be hashed", status: 500)
        }
        if let problem = passwords.store(hash: hash) {
            return WebResponse.error("the password could not be kept: \(problem)", status: 500)
        }
        state.withLock { $0.sessions.closeAll() }
        return opened(for: request.network, now: now)
    }

    /// The word the page's owner types to confirm a factory reset.
    static let resetWord = "reset"

    /// A factory reset from the page (Box → Factory reset): a session, the password typed
    /// again (a phone left logged in is not enough; wrong guesses throttled as a login's),
    /// and the word `reset` typed; `wifi=forget` forgets the networks the box joined too.
    /// The console's `factory reset` is refused to the page's console line for this reason.
    private func factoryReset(_ request: WebRequest, now: Instant) -> WebResponse {
        if case .failure(let refusal) = session(request, now: now) { return refusal.response }
        let form = request.form
        guard (form["confirm"].map { Substring($0).trimmingSpaces() })?.lowercased() == Self.resetWord else {
            return WebResponse.error("type the word \(Self.resetWord) to confirm the factory reset", status: 400)
        }
        guard let hash = passwords.storedHash() else { return WebResponse.error("log in first", status: 401) }
        if let wait = state.withLock({ $0.throttle.attempt(network: request.network, now: now) }) {
            return WebResponse.error(
                "too many wrong passwords: try again in \(Self.duration(wait.secondsRoundedUp))", status: 429)
        }
        guard passwords.matches(form["password"] ?? "", hash: hash) else {
            return WebResponse.error("the password is wrong: nothing was reset", status: 401)
        }
        state.withLock { $0.throttle.succeeded(network: request.network) }
        return consoleJSON(ConsoleRequest(.factoryReset(forgetWiFi: form["wifi"] == "forget"), json: true, door: .page))
    }

    /// On a venue's hub: the join code the form's `key` stands for (`VenueJoinKeys`: once, for
    /// 15 minutes, five wrong keys void them all), asked by the joining box itself — no
    /// session (the key is the hub's owner's consent), but the CSRF header, so no page of
    /// another site can spend the hub's keys.
    private func handOverJoinCode(_ request: WebRequest) -> WebResponse {
        let key = request.form["key"] ?? ""
        guard VenueJoinKeys.isKey(key) else { return WebResponse.error("that is not a hub's key", status: 400) }
        return consoleJSON(
            ConsoleRequest(.venueHandOver(key: VenueJoinKeys.normalized(key)), json: true, door: .page))
    }

    /// The box's log of the last hour as a file to keep (`log hour`), for a session: what an
    /// installer sends whoever helps them.
    private func journal(_ request: WebRequest, now: Instant) -> WebResponse {
        guard state.withLock({ $0.sessions.find(token: request.cookie(Self.cookieName), now: now) }) != nil else {
            return WebResponse.error("log in first", status: 401)
        }
        let asked = ConsoleRequest(.logHour)
        guard let reply = box.ask(asked) else { return Self.notAnswered(asked) }
        let text = reply.rendered(json: false)
        return WebResponse(
            status: 200,
            headers: [
                ["Content-Type", "text/plain; charset=utf-8"],
                ["Content-Disposition", "attachment; filename=\"delaybox-last-hour.log\""],
            ],
            body: .bytes(Array((text + "\n").utf8)))
    }

    /// The box's settings as a file to keep (Box → Backup), for a session.
    private func backup(_ request: WebRequest, now: Instant) -> WebResponse {
        if state.withLock({ $0.sessions.find(token: request.cookie(Self.cookieName), now: now) }) == nil {
            return WebResponse.error("log in first", status: 401)
        }
        return backupFile(passphrase: nil)
    }

    /// The box's settings with its passwords sealed with the form's `passphrase` (Box → Backup,
    /// "include passwords"): a POST with the page's token, the passphrase in no URL or log.
    private func sealedBackup(_ request: WebRequest, now: Instant) -> WebResponse {
        if case .failure(let refusal) = session(request, now: now) { return refusal.response }
        return backupFile(passphrase: request.form["passphrase"] ?? "")
    }

    /// The backup as a file to download.
    private func backupFile(passphrase: String?) -> WebResponse {
        let request = ConsoleRequest(.backup(.take(passphrase: passphrase)), json: true, door: .page)
        guard let reply = box.ask(request) else { return Self.notAnswered(request) }
        if let reason = reply.reason { return WebResponse.error(reason, status: reply.kind == .refused ? 422 : 503) }
        return WebResponse(
            status: 200,
            headers: [
                ["Content-Type", "application/json"],
                ["Content-Disposition", "attachment; filename=\"\(Self.backupName(reply.fields))\""],
            ],
            body: .bytes(Array((JSONText.pretty(reply.fields) + "\n").utf8)))
    }

    /// A backup's file name: the box's name and the day it was taken
    /// (`delaybox-NAME-2026-11-30.json`), the name's letters only what a file name keeps.
    static func backupName(_ fields: JSONValue) -> String {
        let box = (fields["box"]?.string ?? "box").filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        let day = (fields["taken_unix_s"]?.integer).map { CivilDate(unixSeconds: $0).text } ?? "backup"
        return "delaybox-\(box.prefix(40))-\(day).json"
    }

    /// A backup restored (Box → Backup, or the first page of a new box): the file as the
    /// body (`application/json`), for a session — or, on a box with no password yet, while
    /// its first one may be chosen here (a new card restored before its owner logs in).
    /// Checked whole by the box before anything is written; the box restarts on it.
    private func restore(_ request: WebRequest, now: Instant) -> WebResponse {
        let firstStart = passwords.storedHash() == nil && access.setupLeft(now: now) > .zero
        if !firstStart, case .failure(let refusal) = session(request, now: now) { return refusal.response }
        guard request.header("Content-Type")?.hasPrefix("application/json") == true else {
            return WebResponse.error("a backup is sent as its file (application/json)", status: 415)
        }
        guard let text = String(validating: request.body, as: UTF8.self) else {
            return WebResponse.error("not restored, nothing changed: the file is not text (UTF-8)", status: 422)
        }
        // The passphrase that opens its sealed passwords: base64 of its UTF-8 (a header
        // carries no other characters), never in a URL.
        var passphrase: String?
        if let header = request.header(WebRequest.passphraseHeader) {
            guard let bytes = Data(base64Encoded: header), let text = String(validating: bytes, as: UTF8.self) else {
                return WebResponse.error(
                    "not restored, nothing changed: the passphrase is not base64 of UTF-8", status: 400)
            }
            passphrase = text
        }
        return consoleJSON(
            ConsoleRequest(.backup(.restore(text: text, passphrase: passphrase)), json: true, door: .page))
    }

    /// One console line, checked by the console's language and answered by the playout
    /// thread in JSON — or refused with the console's own words.
    private func command(_ request: WebRequest, now: Instant) -> WebResponse {
        if case .failure(let refusal) = session(request, now: now) { return refusal.response }
        let line = request.form["line"] ?? ""
        switch NetworkDoorPolicy.admit(line, door: .page) {
        case .empty: return WebResponse.error("an empty command", status: 400)
        case .unreadable(let error): return WebResponse.error(error.description, status: 400)
        case .refused(let refusal): return WebResponse.error(refusal, status: 403)
        case .admitted(var consoleRequest):
            consoleRequest.json = true
            return consoleJSON(consoleRequest)
        }
    }

    /// The playout thread's answer as JSON (a command refused with its fields too: the page
    /// shows where things stand), or a refusal as `{"error": …}` with its status: 400 a bad
    /// argument, 422 refused, 503 not now.
    private func consoleJSON(_ request: ConsoleRequest) -> WebResponse {
        guard let reply = box.ask(request) else { return Self.notAnswered(request) }
        if let reason = reply.reason {
            return WebResponse.error(
                reason, status: reply.kind == .usage ? 400 : reply.kind == .unavailable ? 503 : 422)
        }
        return WebResponse.json(JSONText.encode(reply.fields))
    }

    /// The box did not answer `request` within its patience.
    static func notAnswered(_ request: ConsoleRequest) -> WebResponse {
        WebResponse.error("the box did not answer within \(Int(request.patienceSeconds)) s", status: 503)
    }

    static func duration(_ seconds: Int64) -> String {
        seconds < 60 ? "\(seconds) s" : "\((seconds + 59) / 60) min"
    }
}

/// A refusal carried through a `Result`.
struct WebResponseError: Error {
    let response: WebResponse
    init(_ response: WebResponse) { self.response = response }
}
