import DelayboxConsole
import DelayboxJSON
import DelayboxUnits
import DelayboxWeb
import Foundation
import Synchronization
import Testing

/// The web door's handling in virtual time: the playout thread is a box that records what
/// it was asked and answers as the console does; the password store keeps a readable
/// "hash" (libcrypt's is tested against the real library in PasswordHashingTests).
@Suite(.timeLimit(.minutes(10))) struct WebAppTests {
    final class Box: WebBox {
        let asked = Mutex<[ConsoleRequest]>([])
        func ask(_ request: ConsoleRequest) -> ConsoleReply? {
            asked.withLock { $0.append(request) }
            switch request.action {
            case .status: return Self.fields(["state": .string("playing"), "delay_ms": .integer("5000")])
            case .command(.setDelay(milliseconds: let ms)):
                return Self.fields(["result": .string("ok"), "delay_ms": .integer(String(ms))])
            case .selectChannel(let name): return .refusal(.refused, "no channel '\(name)'")
            case .report("remote"): return .refusal(.unavailable, "this board has no remote")
            default: return Self.fields(["result": .string("ok")])
            }
        }

        /// An answer of these fields, in this order.
        static func fields(_ members: KeyValuePairs<String, JSONValue>) -> ConsoleReply {
            ConsoleReply(kind: .ok, fields: .object(members.map { .init(key: $0.key, value: $0.value) }), text: nil)
        }
    }

    final class Passwords: PasswordStore {
        let hash = Mutex<String?>(nil)
        func storedHash() -> String? { hash.withLock { $0 } }
        func makeHash(_ password: String) -> String? { "$test$" + password }
        func matches(_ password: String, hash: String) -> Bool { hash == "$test$" + password }
        func store(hash: String) -> String? {
            self.hash.withLock { $0 = hash }
            return nil
        }
        func remove() -> String? {
            hash.withLock { $0 = nil }
            return nil
        }
        /// A dictionary of one word, as libpwquality's would refuse it.
        func weakness(of password: String) -> String? {
            password == "password1" ? "it is based on a dictionary word" : nil
        }
    }

    /// The box's start on the page's clock, and a second of it.
    static let start = Instant.zero
    static let second = TimeAmount.seconds(1)
    let box = Box()
    let passwords = Passwords()
    /// Random bytes that differ at each call (a session's tokens).
    final class Counter: Sendable {
        let value = Mutex<UInt8>(0)
        func bytes(_ count: Int) -> [UInt8] {
            value.withLock {
                $0 &+= 1; return [UInt8](repeating: $0, count: count)
            }
        }
    }
    let counter = Counter()
    let access: WebAccess
    var app: WebApp { WebApp(box: box, access: access, random: counter.bytes) }

    init() { access = WebAccess(passwords: passwords, started: Self.start) }

    static func post(
        _ path: String, _ fields: [(String, String)] = [], cookie: String? = nil, csrf: String? = "login",
        origin: String? = "http://box.local", client: String = "192.168.1.20"
    ) -> WebRequest {
        var headers = ["Host": "box.local", "Content-Type": "application/x-www-form-urlencoded"]
        if let cookie { headers["Cookie"] = "theme=dark; \(WebApp.cookieName)=\(cookie)" }
        if let csrf { headers["X-Delaybox-CSRF"] = csrf }
        if let origin { headers["Origin"] = origin }
        return WebRequest(
            method: "POST", path: path, headers: headers, body: Array(FormFields.encode(fields).utf8), client: client)
    }

    static func get(_ path: String, host: String = "box.local") -> WebRequest {
        WebRequest(method: "GET", path: path, headers: ["Host": host])
    }

    /// The session's cookie value and CSRF token from a response that opened one.
    static func session(of response: WebResponse) -> (cookie: String, csrf: String)? {
        guard let cookie = response.header("Set-Cookie"),
            let value = cookie.split(separator: ";").first?.split(separator: "=").last,
            let csrf = response.text.split(separator: "\"").dropFirst(3).first
        else { return nil }
        return (String(value), String(csrf))
    }

    func loggedIn(_ app: WebApp, password: String = "correct horse", now: Instant = Self.start) throws -> (
        cookie: String, csrf: String
    ) {
        if passwords.storedHash() == nil { _ = passwords.store(hash: "$test$" + password) }
        let response = app.handle(Self.post("/api/login", [("password", password)]), now: now)
        #expect(response.status == 200, "\(response.text)")
        return try #require(Self.session(of: response))
    }

    @Test func thePageIsServedWithAPolicyThatAllowsOnlyItsOwnScript() {
        let page = app.handle(Self.get("/"), now: Self.start)
        #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Content-Security-Policy")?.contains("script-src 'self'") == true)
        #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(page.text.contains("<script src=\"/delaybox.js\""))
        for path in ["/delaybox.js", "/delaybox.css"] {
            let asset = app.handle(Self.get(path), now: Self.start)
            #expect(asset.status == 200 && asset.header("X-Content-Type-Options") == "nosniff", "\(path)")
        }
        // What is served is the page's files as they are (tools/web-page.py --write made the
        // program's copy from them).
        let files = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/DelayboxWeb/page").standardizedFileURL
        for (path, file) in [
            ("/", "delaybox.html"), ("/delaybox.js", "delaybox.js"), ("/delaybox.css", "delaybox.css"),
        ] {
            let onDisk = try? String(contentsOf: files.appendingPathComponent(file), encoding: .utf8)
            #expect(app.handle(Self.get(path), now: Self.start).text == onDisk, "\(file) as served")
        }
        #expect(app.handle(Self.get("/etc/passwd"), now: Self.start).status == 404)
        #expect(app.handle(Self.get("/api/login"), now: Self.start).status == 405)
    }

    @Test func thePageShowsStrangersTextAsTextOnly() {
        let script = app.handle(Self.get("/delaybox.js"), now: Self.start).text
        for markup in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("] {
            #expect(!script.contains(markup), "\(markup)")
        }
        #expect(script.contains("textContent"))
    }

    @Test func theStatusIsReadWithoutALoginButNothingChanges() {
        let app = app
        #expect(app.handle(Self.get("/api/status"), now: Self.start).text.contains("\"delay_ms\":5000"))
        let refused = app.handle(Self.post("/api/command", [("line", "delay 12")]), now: Self.start)
        #expect(refused.status == 401 && refused.text.contains("log in first"))
        #expect(!box.asked.withLock { $0 }.contains { $0.action == .command(.setDelay(milliseconds: 12_000)) })
    }

    @Test func theFirstPasswordIsChosenOnThePageOnlyInTheWindowAfterAStart() throws {
        let app = app
        let state = app.handle(Self.get("/api/session"), now: Self.start + 60 * Self.second)
        #expect(
            state.text.contains("\"password_set\":false") && state.text.contains("\"setup_left_s\":1740"),
            "\(state.text)")
        let late = app.handle(
            Self.post("/api/password", [("new", "correct horse")]), now: Self.start + WebApp.setupWindow)
        #expect(late.status == 403 && late.text.contains("unplug the box"), "\(late.text)")
        #expect(passwords.storedHash() == nil)
        let short = app.handle(Self.post("/api/password", [("new", "short")]), now: Self.start)
        #expect(short.status == 400 && short.text.contains("at least 8 characters"))
        let guessable = app.handle(Self.post("/api/password", [("new", "password1")]), now: Self.start)
        #expect(guessable.status == 400 && guessable.text.contains("too easy to guess"), "\(guessable.text)")
        #expect(passwords.storedHash() == nil)
        let set = app.handle(Self.post("/api/password", [("new", "correct horse")]), now: Self.start + 10 * Self.second)
        #expect(set.status == 200 && passwords.storedHash() == "$test$correct horse")
        let cookie = try #require(set.header("Set-Cookie"))
        #expect(
            cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"), "\(cookie)")
        // Once set, choosing "the first" again needs the current password and a session.
        let again = app.handle(Self.post("/api/password", [("new", "another one")]), now: Self.start + 20 * Self.second)
        #expect(again.status == 401 && passwords.storedHash() == "$test$correct horse")
    }

    /// Issue 56: a hand on the box (`say_address`) opens the closed window for 30 minutes
    /// from then — never earlier than it was, and never over a password that is set.
    @Test func aHandOnTheBoxOpensTheWindowOnlyWhileNoPasswordIsSet() throws {
        let app = app
        let later = Self.start + 2 * WebApp.setupWindow
        let closed = app.handle(Self.post("/api/password", [("new", "correct horse")]), now: later)
        #expect(closed.status == 403 && passwords.storedHash() == nil)
        #expect(access.openSetup(now: later))
        #expect(access.setupLeft(now: later + 60 * Self.second) == WebApp.setupWindow - 60 * Self.second)
        #expect(access.openSetup(now: Self.start) && access.setupOpened == later, "a stale press moves nothing back")
        let opened = app.handle(Self.post("/api/password", [("new", "correct horse")]), now: later + Self.second)
        #expect(opened.status == 200 && passwords.storedHash() == "$test$correct horse")
        let generation = access.generation
        #expect(!access.openSetup(now: later + 2 * WebApp.setupWindow))
        #expect(access.setupLeft(now: later + 2 * WebApp.setupWindow) == .zero && access.generation == generation)
        #expect(passwords.storedHash() == "$test$correct horse", "the password is kept")
    }

    @Test func aSessionCarriesOutConsoleLinesWithTheConsolesOwnWords() throws {
        let app = app
        let session = try loggedIn(app)
        let set = app.handle(
            Self.post("/api/command", [("line", "delay 12.5")], cookie: session.cookie, csrf: session.csrf),
            now: Self.start + Self.second)
        #expect(set.status == 200 && set.text == #"{"delay_ms":12500,"result":"ok"}"#, "\(set.text)")
        #expect(
            box.asked.withLock { $0 }.last
                == ConsoleRequest(.command(.setDelay(milliseconds: 12_500)), json: true, door: .page))
        let typo = app.handle(
            Self.post("/api/command", [("line", "dealy 3")], cookie: session.cookie, csrf: session.csrf),
            now: Self.start + Self.second)
        #expect(typo.status == 400 && typo.text.contains("did you mean 'delay'"), "\(typo.text)")
        let refused = app.handle(
            Self.post("/api/command", [("line", "channel Nowhere")], cookie: session.cookie, csrf: session.csrf),
            now: Self.start + Self.second)
        #expect(refused.status == 422 && refused.text == #"{"error":"no channel 'Nowhere'"}"#, "\(refused.text)")
        let unavailable = app.handle(
            Self.post("/api/command", [("line", "remote")], cookie: session.cookie, csrf: session.csrf),
            now: Self.start + Self.second)
        #expect(unavailable.status == 503 && unavailable.text == #"{"error":"this board has no remote"}"#)
        let help = app.handle(
            Self.post("/api/command", [("line", "help")], cookie: session.cookie, csrf: session.csrf),
            now: Self.start + Self.second)
        #expect(help.status == 403 && help.text.contains("for the console"))
    }

    /// A factory reset from the page takes the session, the password typed again and the
    /// word typed: a phone left logged in, a wrong guess or a slip asks the box nothing; the
    /// console's own line is refused to the page.
    @Test func aFactoryResetTakesThePasswordAgainAndTheWordTyped() throws {
        let app = app
        let session = try loggedIn(app)
        func reset(_ fields: [(String, String)]) -> WebResponse {
            app.handle(Self.post("/api/reset", fields, cookie: session.cookie, csrf: session.csrf), now: Self.start)
        }
        let asked = {
            self.box.asked.withLock { $0 }.filter { if case .factoryReset = $0.action { true } else { false } }
        }
        #expect(reset([("password", "correct horse")]).status == 400, "no word typed")
        #expect(reset([("password", "correct horse"), ("confirm", "yes")]).status == 400)
        let wrong = reset([("password", "wrong guess"), ("confirm", "reset")])
        #expect(wrong.status == 401 && wrong.text.contains("nothing was reset"), "\(wrong.text)")
        let line = app.handle(
            Self.post("/api/command", [("line", "factory reset")], cookie: session.cookie, csrf: session.csrf),
            now: Self.start)
        #expect(line.status == 403 && line.text.contains("its own form"), "\(line.text)")
        let stranger = app.handle(
            Self.post("/api/reset", [("password", "correct horse"), ("confirm", "reset")]), now: Self.start)
        #expect(stranger.status == 401, "no session: \(stranger.text)")
        #expect(asked().isEmpty, "the box was asked nothing")

        let done = reset([("password", "correct horse"), ("confirm", " RESET "), ("wifi", "forget")])
        #expect(done.status == 200, "\(done.text)")
        #expect(asked() == [ConsoleRequest(.factoryReset(forgetWiFi: true), json: true, door: .page)])
    }

    /// The page changes what a listener changes; a device, a broker, a file or a non-http
    /// station is the owner's, and the box is never asked.
    @Test func thePageSetsOnlyWhatAListenerChanges() throws {
        let app = app
        let session = try loggedIn(app)
        func send(_ line: String) -> WebResponse {
            app.handle(
                Self.post("/api/command", [("line", line)], cookie: session.cookie, csrf: session.csrf),
                now: Self.start + Self.second)
        }
        for line in [
            "config set audio.device wav:/var/lib/delaybox/web-password", "config set mqtt.broker mqtt://elsewhere",
            "config set channels.0.url file:///etc/shadow", "config set channels.0.mute_music alsa:hw:0",
            "config set web.port 81", "config set defaults.max_volume 100", "config set channels.0.record true",
            "channel add Neighbour file:///var/lib/delaybox/state.json",
        ] {
            let before = box.asked.withLock { $0.count }
            let refused = send(line)
            #expect(refused.status == 403, "\(line): \(refused.text)")
            #expect(box.asked.withLock { $0.count } == before, "\(line) reached the box")
        }
        #expect(
            send("config set audio.device null").text.contains("is the owner's: set it at the box's serial console"))
        #expect(send("config set channels.0.url https://radio.example/live.mp3").status == 200)
        #expect(send("config set defaults.delay 45 s").status == 200)
    }

    @Test func aChangeFromAnotherSiteOrWithoutTheSessionsTokenIsRefused() throws {
        let app = app
        let session = try loggedIn(app)
        let line = [("line", "volume 100")]
        let cases: [(WebRequest, String)] = [
            (Self.post("/api/command", line, cookie: session.cookie, csrf: nil), "no X-Delaybox-CSRF header"),
            (Self.post("/api/command", line, cookie: session.cookie, csrf: "login"), "reload the page"),
            (
                Self.post(
                    "/api/command", line, cookie: session.cookie, csrf: session.csrf, origin: "http://evil.example"),
                "Origin http://evil.example"
            ),
            (
                Self.post("/api/command", line, cookie: session.cookie, csrf: session.csrf, origin: "null"),
                "Origin null"
            ),
            (
                Self.post("/api/login", [("password", "correct horse")], origin: "http://box.local.evil.example"),
                "Origin"
            ),
        ]
        for (request, words) in cases {
            let response = app.handle(request, now: Self.start + Self.second)
            #expect(response.status == 403 && response.text.contains(words), "\(response.text)")
        }
        var crossSite = Self.post("/api/command", line, cookie: session.cookie, csrf: session.csrf, origin: nil)
        crossSite.headers["sec-fetch-site"] = "cross-site"
        #expect(app.handle(crossSite, now: Self.start + Self.second).status == 403)
        #expect(!box.asked.withLock { $0 }.contains { $0.action == .command(.setVolume(100)) })
        // The same line from the page itself goes through.
        #expect(
            app.handle(
                Self.post("/api/command", line, cookie: session.cookie, csrf: session.csrf),
                now: Self.start + Self.second
            )
            .status == 200)
    }

    @Test func wrongPasswordsLockOneAddressOutForAQuarterOfAnHourAndNotTheOthers() throws {
        let app = app
        _ = passwords.store(hash: "$test$correct horse")
        for attempt in 0..<LoginThrottle.perNetwork {
            let wrong = app.handle(
                Self.post("/api/login", [("password", "guess \(attempt)")]),
                now: Self.start + Int64(attempt) * Self.second)
            #expect(wrong.status == 401 && wrong.text.contains("wrong password"))
        }
        // Even the right password waits now, and is not checked.
        let locked = app.handle(
            Self.post("/api/login", [("password", "correct horse")]), now: Self.start + 10 * Self.second)
        #expect(
            locked.status == 429 && locked.header("Retry-After") == "890" && locked.text.contains("15 min"),
            "\(locked.text)")
        let other = app.handle(
            Self.post("/api/login", [("password", "correct horse")], client: "192.168.1.30"),
            now: Self.start + 10 * Self.second)
        #expect(other.status == 200)
        let later = app.handle(
            Self.post("/api/login", [("password", "correct horse")]), now: Self.start + LoginThrottle.perNetworkWindow)
        #expect(later.status == 200, "\(later.text)")
    }

    /// One wrong password from each of `clients`, a second after the start.
    static func guess(_ app: WebApp, from clients: [String]) {
        for client in clients {
            _ = app.handle(
                post("/api/login", [("password", "guess")], client: client), now: start + second)
        }
    }

    /// The right password from `client`, two seconds after the start.
    static func logIn(_ app: WebApp, from client: String) -> WebResponse {
        app.handle(post("/api/login", [("password", "correct horse")], client: client), now: start + 2 * second)
    }

    /// A LAN host takes as many IPv6 addresses of its /64 as it likes: they are one network,
    /// so its guesses lock out that /64 after 5, and never the owner's phone.
    @Test func manyAddressesOfOneSlash64AreOneGuesser() throws {
        let app = app
        _ = passwords.store(hash: "$test$correct horse")
        Self.guess(app, from: (1...LoginThrottle.overall).map { "2001:db8:5:6::\($0)" })
        let neighbour = Self.logIn(app, from: "2001:db8:5:6:aa::1")
        #expect(neighbour.status == 429, "\(neighbour.text)")
        for owner in ["192.168.1.30", "2001:db8:5:7::9", "::ffff:192.168.1.31"] {
            let login = Self.logIn(app, from: owner)
            #expect(login.status == 200, "\(owner): \(login.text)")
        }
    }

    @Test func manyAddressesGuessingTogetherLockEveryLoginForTheMinute() {
        let app = app
        _ = passwords.store(hash: "$test$correct horse")
        Self.guess(app, from: (0..<LoginThrottle.overall).map { "10.0.\($0).1" })
        #expect(Self.logIn(app, from: "10.9.9.9").status == 429)
        #expect(
            app.handle(
                Self.post("/api/login", [("password", "correct horse")], client: "10.9.9.9"),
                now: Self.start + 61 * Self.second
            ).status == 200)
    }

    @Test func aNewPasswordNeedsTheCurrentOneAndEndsEveryOtherSession() throws {
        let app = app
        let phone = try loggedIn(app)
        let tablet = try loggedIn(app)
        let wrong = app.handle(
            Self.post(
                "/api/password", [("current", "nope"), ("new", "battery staple")], cookie: phone.cookie,
                csrf: phone.csrf),
            now: Self.start + Self.second)
        #expect(wrong.status == 401 && passwords.storedHash() == "$test$correct horse")
        let changed = app.handle(
            Self.post(
                "/api/password", [("current", "correct horse"), ("new", "battery staple")], cookie: phone.cookie,
                csrf: phone.csrf), now: Self.start + Self.second)
        #expect(changed.status == 200 && passwords.storedHash() == "$test$battery staple")
        let renewed = try #require(Self.session(of: changed))
        let line = [("line", "mute")]
        #expect(
            app.handle(
                Self.post("/api/command", line, cookie: tablet.cookie, csrf: tablet.csrf), now: Self.start + Self.second
            )
            .status == 401)
        #expect(
            app.handle(
                Self.post("/api/command", line, cookie: phone.cookie, csrf: phone.csrf), now: Self.start + Self.second
            ).status
                == 401)
        #expect(
            app.handle(
                Self.post("/api/command", line, cookie: renewed.cookie, csrf: renewed.csrf),
                now: Self.start + Self.second
            )
            .status == 200)
    }

    @Test func aPasswordSetOrForgottenAtTheConsoleEndsEverySessionAndReopensTheWindow() throws {
        let app = app
        let phone = try loggedIn(app)
        let line = [("line", "mute")]
        #expect(access.set(password: "short") != nil && access.set(password: "at the console") == nil)
        #expect(passwords.storedHash() == "$test$at the console")
        #expect(
            app.handle(
                Self.post("/api/command", line, cookie: phone.cookie, csrf: phone.csrf), now: Self.start + Self.second
            ).status
                == 401)
        let tablet = try loggedIn(app, password: "at the console", now: Self.start + Self.second)
        // Forgotten an hour after the start: the page may choose one for 30 minutes from then.
        let hour = Self.start + .hours(1)
        #expect(access.reset(now: hour) == nil && passwords.storedHash() == nil)
        #expect(
            app.handle(Self.post("/api/command", line, cookie: tablet.cookie, csrf: tablet.csrf), now: hour).status
                == 401)
        let state = app.handle(Self.get("/api/session"), now: hour + 60 * Self.second)
        #expect(state.text.contains("\"setup_left_s\":1740"), "\(state.text)")
        #expect(
            app.handle(Self.post("/api/password", [("new", "chosen again")]), now: hour + 60 * Self.second).status
                == 200)
        // And the page does not take the console's own password commands.
        let session = try #require(
            Self.session(
                of: app.handle(Self.post("/api/login", [("password", "chosen again")]), now: hour + 61 * Self.second)))
        let console = app.handle(
            Self.post("/api/command", [("line", "web reset")], cookie: session.cookie, csrf: session.csrf),
            now: hour + 62 * Self.second)
        #expect(console.status == 403 && passwords.storedHash() == "$test$chosen again", "\(console.text)")
    }

    @Test func loggingOutOrAMonthUnusedEndsASession() throws {
        let app = app
        let phone = try loggedIn(app)
        let line = [("line", "mute")]
        let out = app.handle(
            Self.post("/api/logout", cookie: phone.cookie, csrf: phone.csrf), now: Self.start + Self.second)
        #expect(out.header("Set-Cookie")?.contains("Max-Age=0") == true)
        #expect(
            app.handle(
                Self.post("/api/command", line, cookie: phone.cookie, csrf: phone.csrf), now: Self.start + Self.second
            ).status
                == 401)
        let tablet = try loggedIn(app, now: Self.start + Self.second)
        let stillUsed = Self.start + WebSessions.idleLimit  // used a moment before the limit: it lives on
        #expect(
            app.handle(Self.post("/api/command", line, cookie: tablet.cookie, csrf: tablet.csrf), now: stillUsed).status
                == 200)
        #expect(
            app.handle(
                Self.post("/api/command", line, cookie: tablet.cookie, csrf: tablet.csrf),
                now: stillUsed + WebSessions.idleLimit
            ).status == 401)
    }

    @Test func aRequestForAnotherSitesNameIsRefused() {
        let app = app
        for host in [
            "box.local", "delaybox.local:8080", "192.168.1.20", "192.168.1.20:80", "[fe80::1]:80", "[::1]",
            "localhost:8080",
            "delaybox", "delaybox.lan", "pi.home.arpa",
        ] {
            #expect(app.handle(Self.get("/api/status", host: host), now: Self.start).status == 200, "\(host)")
        }
        // DNS rebinding: an internet name pointed at the box's address, so that its page's
        // script would be the box's own — it could choose the first password.
        for host in [
            "evil.example", "evil.example:80", "box.local.evil.example", "999.1.1.1", "", "[fe80::1", "a b.local",
            "2\u{B2}.post.1.20:8080", "1.2.3.\u{663}", "box.local:8\u{B2}",
        ] {
            #expect(app.handle(Self.get("/api/status", host: host), now: Self.start).status == 421, "\(host)")
        }
        var rebound = Self.post("/api/password", [("new", "attacker's choice")], origin: "http://evil.example")
        rebound.headers["host"] = "evil.example"
        #expect(app.handle(rebound, now: Self.start).status == 421 && passwords.storedHash() == nil)
    }

    @Test func aPasswordIsEightToOneHundredTwentyEightBytesOfText() {
        #expect(WebPassword.problem("1234567") != nil)
        #expect(WebPassword.problem("12345678") == nil)
        #expect(WebPassword.problem(String(repeating: "é", count: 64)) == nil)
        #expect(WebPassword.problem(String(repeating: "é", count: 65))?.contains("too long") == true)
        #expect(WebPassword.problem("abcdefgh\u{0}ijk")?.contains("control character") == true)
    }

    @Test func formFieldsAreDecodedAsBrowsersEncodeThem() {
        #expect(
            FormFields.decode(Array("line=delay+%2B1.5&x=%zz&line=second&empty".utf8))
                == ["line": "delay +1.5", "x": "%zz", "empty": ""])
        #expect(FormFields.decode(Array(FormFields.encode([("p", "a&b=c é+")]).utf8)) == ["p": "a&b=c é+"])
    }
}
