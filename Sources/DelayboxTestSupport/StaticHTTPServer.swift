import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain HTTP server on loopback serving the files of a directory (Python's
/// `http.server`), for streams that are broken on purpose: garbage, truncated frames.
public final class StaticHTTPServer {
    public let port: Int
    public let directory: URL
    private let process = Process()

    public init(directory: URL) throws {
        self.directory = directory
        port = try IcecastServer.freePort()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", directory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while (try? ExternalTool.run(["curl", "-sf", "-o", "/dev/null", "http://127.0.0.1:\(port)/"])) == nil {
            if Date() > deadline { throw ExternalTool.Failed(description: "http.server on port \(port) did not get ready") }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    deinit {
        Glibc.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    public func url(_ file: String) -> String { "http://127.0.0.1:\(port)/\(file)" }
}
