import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A venue's time as a real chrony gives it, on loopback: a server (`local stratum 1`, as a
/// hub serving its own clock) and a client that follows it every 1/16 s, both with `-x` —
/// neither touches this machine's clock. A box given `environment` asks the client
/// (`DELAYBOX_CHRONY_PORT`), as a box of a venue asks its own chronyd.
public final class ChronyPair {
    public static var isAvailable: Bool {
        ["/usr/sbin/chronyd", "/usr/bin/chronyc"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The client's command port (UDP, 127.0.0.1).
    public let commandPort: Int
    private let serverPort: Int
    private let directory: URL
    private let serverSettings: String
    private var daemons: [LaunchedProgram] = []

    /// The ports chosen; nothing runs until `start`. `serverSettings`: what the server serves
    /// beside its port (a hub's own clock to loopback unless a test gives the hub's file).
    public init(serverSettings: String = "local stratum 1\nallow 127.0.0.1") throws {
        self.serverSettings = serverSettings
        directory = try ExternalTool.temporaryDirectory("chrony")
        // chronyd refuses a socket directory others may write to.
        chmod(directory.path, 0o700)
        (commandPort, serverPort) = (try LoopbackPort.unused(), try LoopbackPort.unused())
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// What a box's process needs to ask this client.
    public var environment: [String: String] { ["DELAYBOX_CHRONY_PORT": String(commandPort)] }

    /// Starts the server and the client.
    public func start() throws {
        stop()
        try launch(
            "server",
            """
            port \(serverPort)
            \(serverSettings)
            cmdport 0
            """)
        try launch(
            "client",
            """
            server 127.0.0.1 port \(serverPort) iburst minpoll -4 maxpoll -4
            port 0
            cmdport \(commandPort)
            bindcmdaddress 127.0.0.1
            cmdallow 127.0.0.1
            """)
    }

    /// Freezes the client (SIGSTOP): a chronyd that no longer answers.
    public func freeze() { daemons.last?.signal(SIGSTOP) }

    /// Stops both, as a venue's time server going away.
    public func stop() {
        daemons.forEach { $0.kill() }
        daemons = []
    }

    /// What the client's `chronyc -c -n tracking` says now.
    public func tracking() -> String {
        (try? ExternalTool.run([
            "chronyc", "-h", "127.0.0.1", "-p", String(commandPort), "-c", "-n", "tracking",
        ])) ?? ""
    }

    private func launch(_ name: String, _ config: String) throws {
        let file = directory.appendingPathComponent("\(name).conf")
        let own = "bindcmdaddress \(directory.path)/\(name).sock\npidfile \(directory.path)/\(name).pid\n"
        try (config + "\n" + own).write(to: file, atomically: true, encoding: .utf8)
        let user = getuid() == 0 ? ["-u", "root"] : []
        daemons.append(
            try LaunchedProgram(
                URL(fileURLWithPath: "/usr/sbin/chronyd"), ["-x", "-d", "-f", file.path] + user,
                errors: .file(directory.appendingPathComponent("\(name).log"))))
    }

    /// Both daemons' logs.
    public var log: String {
        ["server", "client"].map {
            (try? String(contentsOf: directory.appendingPathComponent("\($0).log"), encoding: .utf8)) ?? ""
        }.joined(separator: "\n")
    }
}
