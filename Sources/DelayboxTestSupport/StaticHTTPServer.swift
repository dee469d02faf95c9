import Foundation

/// An HTTP server on loopback serving the files of a directory (Python's `http.server`),
/// for streams that are broken on purpose (garbage, truncated frames), over https with a
/// self-signed certificate that no client trusts (certificate failures), or as a
/// SHOUTcast-style ICY stream with titles at known byte offsets (event placement).
public final class StaticHTTPServer {
    public let port: Int
    public let directory: URL
    private let scheme: String
    private let process: LaunchedProgram
    /// Every request's path, a line each, as the server answered it.
    private let requestLog: URL

    /// - Parameter icyTitles: when given, a client that asks for ICY metadata gets a block
    ///   after every `icyInterval` bytes of a file; block k (after k × `icyInterval` bytes)
    ///   carries `StreamTitle='icyTitles[k]';`, the others are empty.
    /// - Parameter misbehaving: also serves `/redirect-loop` (a 302 to itself), `/trickle`
    ///   (a byte every 0.2 s, never ending) and `/endless` (bytes as fast as they go, never
    ///   ending): what a hostile clip server does to a download.
    public init(
        directory: URL, selfSignedTLS: Bool = false, icyTitles: [Int: String]? = nil, icyInterval: Int = 16_000,
        misbehaving: Bool = false
    ) throws {
        self.directory = directory
        port = try LoopbackPort.unused()
        scheme = selfSignedTLS ? "https" : "http"
        let handler = icyTitles != nil ? "Icy" : misbehaving ? "Hostile" : "http.server.SimpleHTTPRequestHandler"
        requestLog = FileManager.default.temporaryDirectory.appendingPathComponent(
            "delaybox-http-\(UUID().uuidString).log")
        var server =
            "import http.server, functools, os, time\n"
            + (icyTitles.map { Self.icyHandler(titles: $0, interval: icyInterval) } ?? "")
            + (misbehaving ? Self.hostileHandler : "")
            + "class Logged(\(handler)):\n"
            + "    def log_request(self, *args):\n"
            + "        with open('\(requestLog.path)', 'a') as log: log.write(self.path + '\\n')\n"
            + "handler = functools.partial(Logged, directory='\(directory.path)')\n"
            + "httpd = http.server.ThreadingHTTPServer(('127.0.0.1', \(port)), handler)\n"
        if selfSignedTLS {
            let certificate = directory.appendingPathComponent(".cert.pem").path
            let key = directory.appendingPathComponent(".key.pem").path
            try ExternalTool.run([
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", certificate,
            ])
            server +=
                "import ssl\ncontext = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)\n"
                + "context.load_cert_chain('\(certificate)', '\(key)')\n"
                + "httpd.socket = context.wrap_socket(httpd.socket, server_side=True)\n"
        }
        server += "httpd.serve_forever()\n"
        process = try LaunchedProgram(command: ["python3", "-c", server])
        try Eventually.wait(for: "http.server on port \(port) to answer", within: 10, every: 0.1) {
            (try? ExternalTool.run(["curl", "-skf", "-o", "/dev/null", "\(scheme)://127.0.0.1:\(port)/"])) != nil
        }
    }

    private static let hostileHandler = """
        class Hostile(http.server.SimpleHTTPRequestHandler):
            def do_GET(self):
                if self.path == '/redirect-loop':
                    self.send_response(302); self.send_header('Location', '/redirect-loop'); self.end_headers(); return
                if self.path not in ('/trickle', '/endless'): return super().do_GET()
                self.send_response(200); self.send_header('Content-Type', 'audio/mpeg'); self.end_headers()
                try:
                    while True:
                        if self.path == '/trickle':
                            self.wfile.write(b'\\xff'); self.wfile.flush(); time.sleep(0.2)
                        else:
                            self.wfile.write(b'\\0' * 65536)
                except OSError:
                    pass

        """

    /// A request handler that interleaves ICY metadata blocks, as SHOUTcast and Icecast do.
    private static func icyHandler(titles: [Int: String], interval: Int) -> String {
        let table = titles.map { "\($0.key): \"\"\"\($0.value)\"\"\"" }.joined(separator: ", ")
        return """
            class Icy(http.server.SimpleHTTPRequestHandler):
                def do_GET(self):
                    if not os.path.isfile(self.translate_path(self.path)): return super().do_GET()
                    data = open(self.translate_path(self.path), 'rb').read()
                    icy = self.headers.get('Icy-MetaData') == '1'
                    self.send_response(200)
                    self.send_header('Content-Type', 'audio/mpeg')
                    if icy: self.send_header('icy-metaint', '\(interval)')
                    self.end_headers()
                    titles, out = {\(table)}, bytearray()
                    for start in range(0, len(data), \(interval)):
                        out += data[start:start + \(interval)]
                        if icy and start + \(interval) <= len(data):
                            title = titles.get(start // \(interval) + 1)
                            block = ("StreamTitle='%s';" % title).encode() if title else b''
                            block += b'\\0' * (-len(block) % 16)
                            out += bytes([len(block) // 16]) + block
                    self.wfile.write(out)

            """
    }

    public func url(_ file: String) -> String { "\(scheme)://127.0.0.1:\(port)/\(file)" }

    /// How many requests for `file` the server has answered.
    public func requests(for file: String) -> Int {
        let log = (try? String(contentsOf: requestLog, encoding: .utf8)) ?? ""
        return log.split(separator: "\n").filter { $0 == "/" + file }.count
    }

    deinit { try? FileManager.default.removeItem(at: requestLog) }
}
