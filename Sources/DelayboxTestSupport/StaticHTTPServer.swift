import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP server on loopback serving the files of a directory (Python's `http.server`),
/// for streams that are broken on purpose (garbage, truncated frames) and, over https with
/// a self-signed certificate that no client trusts, for certificate failures.
public final class StaticHTTPServer {
    public let port: Int
    public let directory: URL
    private let scheme: String
    private let process = Process()

    public init(directory: URL, selfSignedTLS: Bool = false) throws {
        self.directory = directory
        port = try IcecastServer.freePort()
        scheme = selfSignedTLS ? "https" : "http"
        var server = "import http.server, functools\n"
            + "handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory='\(directory.path)')\n"
            + "httpd = http.server.ThreadingHTTPServer(('127.0.0.1', \(port)), handler)\n"
        if selfSignedTLS {
            let certificate = directory.appendingPathComponent(".cert.pem").path
            let key = directory.appendingPathComponent(".key.pem").path
            try ExternalTool.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                                  "-subj", "/CN=127.0.0.1", "-keyout", key, "-out", certificate])
            server += "import ssl\ncontext = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)\n"
                + "context.load_cert_chain('\(certificate)', '\(key)')\n"
                + "httpd.socket = context.wrap_socket(httpd.socket, server_side=True)\n"
        }
        server += "httpd.serve_forever()\n"
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", server]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while (try? ExternalTool.run(["curl", "-skf", "-o", "/dev/null", "\(scheme)://127.0.0.1:\(port)/"])) == nil {
            if Date() > deadline { throw ExternalTool.Failed(description: "http.server on port \(port) did not get ready") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    deinit {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    public func url(_ file: String) -> String { "\(scheme)://127.0.0.1:\(port)/\(file)" }
}
