import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A real mosquitto broker on loopback, with its own config and free port (TLS with a test
/// CA, or a password file, when asked), stopped by its PID; and `mosquitto_sub` /
/// `mosquitto_pub` as the outside world.
public final class MosquittoBroker {
    public private(set) var port: Int
    public let directory: URL
    /// The test CA's certificate, when the broker speaks TLS.
    public private(set) var caFile: String?
    private let passwords: [String: String]
    /// mosquitto's ACL, when given.
    private let acl: String?
    /// The user `mosquitto_pub` and `mosquitto_sub` log in as.
    private let clientUser: String?
    private let tls: Bool
    private var server: LaunchedProgram?

    public static var isAvailable: Bool {
        ["/usr/sbin/mosquitto", "/usr/bin/mosquitto_sub", "/usr/bin/mosquitto_pub"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// - Parameters:
    ///   - tls: a TLS listener, its certificate (for 127.0.0.1) signed by a CA made here.
    ///   - passwords: user → password; without, anonymous clients are allowed.
    ///   - acl: mosquitto's ACL file's text (`acl_file`).
    ///   - clientUser: the user the test's own clients log in as (of `passwords`; nil: any).
    public init(
        tls: Bool = false, passwords: [String: String] = [:], acl: String? = nil, clientUser: String? = nil
    ) throws {
        directory = try ExternalTool.temporaryDirectory("mosquitto")
        self.tls = tls
        self.passwords = passwords
        self.acl = acl
        self.clientUser = clientUser
        port = try LoopbackPort.unused()
        if tls { try makeCertificates() }
        try start()
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Starts (or restarts, on the same port) the broker and waits until it takes clients.
    public func start() throws {
        stop()
        // A new log: the listening line looked for below must be this broker's.
        let previous = directory.appendingPathComponent("broker.log")
        if FileManager.default.fileExists(atPath: previous.path) {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent("broker-before.log"))
            try FileManager.default.moveItem(at: previous, to: directory.appendingPathComponent("broker-before.log"))
        }
        var config = "listener \(port) 127.0.0.1\npersistence false\nlog_dest file \(directory.path)/broker.log\n"
        config += "log_type all\n"
        if tls {
            config +=
                "cafile \(directory.path)/ca.pem\ncertfile \(directory.path)/server.pem\nkeyfile \(directory.path)/server.key\n"
        }
        if passwords.isEmpty {
            config += "allow_anonymous true\n"
        } else {
            let file = directory.appendingPathComponent("passwords").path
            _ = FileManager.default.createFile(atPath: file, contents: nil)
            for (user, password) in passwords {
                try ExternalTool.run(["mosquitto_passwd", "-b", file, user, password])
            }
            config += "allow_anonymous false\npassword_file \(file)\n"
        }
        if let acl {
            let file = directory.appendingPathComponent("acl").path
            try acl.write(toFile: file, atomically: true, encoding: .utf8)
            config += "acl_file \(file)\n"
        }
        let file = directory.appendingPathComponent("mosquitto.conf")
        try config.write(to: file, atomically: true, encoding: .utf8)
        if getuid() == 0 { _ = try? ExternalTool.run(["chown", "-R", "mosquitto", directory.path]) }
        let process = try LaunchedProgram(URL(fileURLWithPath: "/usr/sbin/mosquitto"), ["-c", file.path])
        server = process
        let brokerLog = directory.appendingPathComponent("broker.log"), port = port
        let listening = {
            ((try? String(contentsOf: brokerLog, encoding: .utf8)) ?? "").contains(
                "Opening ipv4 listen socket on port \(port)")
        }
        _ = Eventually.holds(within: 10, every: 0.05) { listening() || !process.isRunning }
        guard listening() else {
            throw ExternalTool.Failed(description: "mosquitto on port \(port) did not start: \(log)")
        }
    }

    /// Stops the broker, as a crash or restart would.
    public func stop() {
        server?.kill()
        server = nil
    }

    /// The broker's own log.
    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("broker.log"), encoding: .utf8)) ?? ""
    }

    /// `mosquitto_pub`/`_sub`'s connection arguments for this broker.
    public var clientArguments: [String] {
        let user: String? = clientUser ?? passwords.first?.key
        let login: [String] = user.flatMap { name in passwords[name].map { ["-u", name, "-P", $0] } } ?? []
        return ["-h", "127.0.0.1", "-p", String(port)] + (caFile.map { ["--cafile", $0] } ?? []) + login
    }

    /// Publishes one message (or, with `lines`, one per line of `payload`).
    public func publish(_ topic: String, _ payload: String, retain: Bool = false, lines: Bool = false) throws {
        let arguments =
            clientArguments + ["-q", "1", "-t", topic] + (retain ? ["-r"] : []) + (lines ? ["-l"] : ["-m", payload])
        if lines {
            let input = directory.appendingPathComponent("lines-\(UUID().uuidString)")
            try payload.write(to: input, atomically: true, encoding: .utf8)
            try ExternalTool.run(["sh", "-c", "mosquitto_pub \"$@\" < \(input.path)", "sh"] + arguments)
        } else {
            try ExternalTool.run(["mosquitto_pub"] + arguments)
        }
    }

    /// Publishes a file's bytes as one message.
    public func publish(_ topic: String, file: URL) throws {
        try ExternalTool.run(["mosquitto_pub"] + clientArguments + ["-q", "1", "-t", topic, "-f", file.path])
    }

    /// Everything published on `topic` (a filter: `delaybox/#`) from now on, as
    /// `topic payload` lines, until `stop` — retained messages first.
    public final class Watcher {
        private var process: LaunchedProgram?
        private let file: URL
        /// A topic of this watcher's own, also subscribed: a message on it seen means the
        /// subscription is in place (mosquitto_sub does not say when it is).
        private let probe = "delaybox-test/probe/\(UUID().uuidString)"

        init(broker: MosquittoBroker, topic: String) throws {
            file = broker.directory.appendingPathComponent("watch-\(UUID().uuidString).txt")
            process = try LaunchedProgram(
                URL(fileURLWithPath: "/usr/bin/mosquitto_sub"),
                broker.clientArguments + ["-v", "-q", "1", "-t", topic, "-t", probe], output: .file(file))
            // Subscribed before the test goes on: the probe, sent until it comes back.
            let deadline = Date().addingTimeInterval(10)
            repeat {
                try broker.publish(probe, "subscribed")
                if Eventually.holds(within: 0.5, { self.rawLines.contains { $0.hasPrefix(self.probe + " ") } }) {
                    return
                }
            } while Date() < deadline
            throw ExternalTool.Failed(description: "mosquitto_sub did not subscribe to '\(topic)' within 10 s")
        }

        deinit { stop() }

        public func stop() { process?.kill() }

        /// The lines so far (a payload that is not UTF-8 with replacement characters).
        public var lines: [String] { rawLines.filter { !$0.hasPrefix(probe + " ") } }

        private var rawLines: [String] {
            String(decoding: (try? Data(contentsOf: file)) ?? Data(), as: UTF8.self).split(separator: "\n").map(
                String.init)
        }

        /// The payloads on exactly `topic` so far.
        public func payloads(_ topic: String) -> [String] {
            lines.compactMap { $0.hasPrefix(topic + " ") ? String($0.dropFirst(topic.count + 1)) : nil }
        }

        /// Waits up to `seconds` for a payload on `topic` that `condition` accepts; returns it.
        @discardableResult
        public func wait(for topic: String, seconds: Double = 10, where condition: (String) -> Bool = { _ in true })
            -> String?
        {
            Eventually.value(within: seconds) { payloads(topic).last(where: condition) }
        }
    }

    public func watch(_ topic: String) throws -> Watcher { try Watcher(broker: self, topic: topic) }

    /// A CA and a server certificate for 127.0.0.1 signed by it, in `directory`.
    private func makeCertificates() throws {
        let d = directory.path
        try ExternalTool.run([
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=Delaybox test CA",
            "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem",
        ])
        try ExternalTool.run([
            "openssl", "req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1",
            "-keyout", "\(d)/server.key", "-out", "\(d)/server.csr",
        ])
        try "subjectAltName=IP:127.0.0.1\n".write(toFile: "\(d)/san.ext", atomically: true, encoding: .utf8)
        try ExternalTool.run([
            "openssl", "x509", "-req", "-in", "\(d)/server.csr", "-CA", "\(d)/ca.pem", "-CAkey", "\(d)/ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", "\(d)/san.ext", "-out", "\(d)/server.pem",
        ])
        caFile = "\(d)/ca.pem"
    }
}
