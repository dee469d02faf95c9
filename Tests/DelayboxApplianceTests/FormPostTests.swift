import DelayboxPlatform
import DelayboxTestSupport
import Foundation
import Testing

/// How a joining box asks another box's page for its join code (`FormPost`, issue 70),
/// against a real socket that answers as a stranger may: the answer read whole, or a clear
/// failure within the patience given — never a hang, never more than `largest` bytes kept.
@Suite(.timeLimit(.minutes(10))) struct FormPostTests {
    /// A one-connection server on 127.0.0.1:`port` (python3): reads the request, then does
    /// `behaviour` — `answer` (a 200 with a JSON body), `silent` (says nothing, keeps the
    /// connection), `flood` (a 200 whose body never ends), `garbage` (no HTTP).
    static func server(port: Int, behaviour: String, in directory: URL) throws -> LaunchedProgram {
        let request = directory.appendingPathComponent("request")
        let script = """
            import socket, sys, time
            s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("127.0.0.1", \(port))); s.listen(1)
            c, _ = s.accept(); c.settimeout(5); data = b""
            while b"\\r\\n\\r\\n" not in data or not data.endswith(b"key=K7QF2MXP"): data += c.recv(4096)
            open("\(request.path)", "wb").write(data)
            b = "\(behaviour)"
            if b == "answer": c.sendall(b'HTTP/1.1 200 OK\\r\\nContent-Length: 15\\r\\n\\r\\n{"code":"abc"}\\n'); c.close()
            elif b == "garbage": c.sendall(b"SSH-2.0-OpenSSH\\r\\n"); c.close()
            elif b == "flood":
                c.sendall(b"HTTP/1.1 200 OK\\r\\n\\r\\n")
                try:
                    while True: c.sendall(b"x" * 65536)
                except OSError: pass
            time.sleep(30)
            """
        return try LaunchedProgram(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", script])
    }

    func post(_ behaviour: String, patience: Double = 5) throws -> (
        Result<FormPost.Answer, FormPost.Failure>, Double, String?
    ) {
        let directory = try ExternalTool.temporaryDirectory("form-post")
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try LoopbackPort.unused()
        let server = try Self.server(port: port, behaviour: behaviour, in: directory)
        defer { server.kill() }
        try #require(Eventually.holds(within: 10) { !LoopbackPort.isFree(port) })
        let started = Date()
        let result = Result { () throws(FormPost.Failure) -> FormPost.Answer in
            try FormPost.send(
                "key=K7QF2MXP", to: "/api/venue/claim", host: "127.0.0.1", port: port,
                headers: [("X-Delaybox-CSRF", "venue-join")], patience: .milliseconds(Int64(patience * 1000)))
        }
        let request = try? String(contentsOf: directory.appendingPathComponent("request"), encoding: .utf8)
        return (result, Date().timeIntervalSince(started), request)
    }

    @Test func anAnswerIsReadWholeAndTheRequestIsAForm() throws {
        let (result, _, request) = try post("answer")
        let answer = try result.get()
        #expect(answer.status == 200 && String(decoding: answer.body, as: UTF8.self) == "{\"code\":\"abc\"}\n")
        #expect(request?.hasPrefix("POST /api/venue/claim HTTP/1.0\r\nHost: 127.0.0.1:") == true)
        #expect(request?.contains("\r\nX-Delaybox-CSRF: venue-join\r\n") == true)
        #expect(request?.contains("\r\nContent-Length: 12\r\n") == true)
    }

    @Test func aSilentPeerFailsWithinThePatience() throws {
        let (result, seconds, _) = try post("silent", patience: 1)
        guard case .failure(let failure) = result else {
            Issue.record("a silent peer gave an answer")
            return
        }
        #expect(failure.description.contains("stopped answering"), "\(failure)")
        #expect(seconds < 4, "\(seconds) s")
    }

    @Test func anEndlessAnswerIsCutOff() throws {
        let (result, _, _) = try post("flood")
        guard case .failure(let failure) = result else {
            Issue.record("an endless answer was taken")
            return
        }
        #expect(failure.description == "its answer is longer than a box's")
    }

    @Test func aPeerThatIsNoWebServerIsSaidSo() throws {
        let (result, _, _) = try post("garbage")
        guard case .failure(let failure) = result else {
            Issue.record("garbage was taken for an answer")
            return
        }
        #expect(failure.description == "its answer is not HTTP")
    }

    @Test func nobodyListeningIsSaidAtOnce() throws {
        let port = try LoopbackPort.unused()
        #expect(throws: FormPost.Failure.self) {
            try FormPost.send("key=x", to: "/", host: "127.0.0.1", port: port)
        }
    }
}
