import DelayboxConfig
import DelayboxConfigFile
import DelayboxFiles
import DelayboxPlatform
import DelayboxTestSupport
import DelayboxUnits
import DelayboxVenue
import Foundation
import Synchronization
import Testing

/// One box of a venue test (issue 70): its runtime directory, its saved config, root's
/// files under a directory of the test's, and root's helper serving its requests on a
/// thread of its own — systemd's part recorded, mosquitto's reload a SIGHUP to the broker
/// the test started (`startBroker`).
final class RootVenueHelper: Sendable {
    let runtime: String
    let configPath: String
    let helper: VenueHelper
    let system = System()
    private let serving = Atomic<Bool>(true)

    /// - Parameters:
    ///   - runsBroker: systemd's `restart mosquitto.service` starts a real broker from the
    ///     files written (else the test starts it).
    ///   - restartSeconds: how long each of systemd's restarts takes (a slow board's: a
    ///     broker and a time server restarted take seconds on a Pi Zero).
    ///   - announcing: where the hub's Avahi announcement is copied when the broker starts
    ///     (`AvahiDaemon.serviceFile`): the system's services directory, not the test's root.
    init(
        _ directory: URL, port: Int, runsBroker: Bool = false, restartSeconds: Double = 0, announcing: URL? = nil
    ) throws {
        runtime = directory.appendingPathComponent("run").path
        configPath = directory.appendingPathComponent("config.yaml").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        let system = system, root = directory.appendingPathComponent("root").path
        helper = VenueHelper(
            runtimeDirectory: runtime, files: VenuePaths(root: root),
            brokerPort: port
        ) { program, arguments in
            guard program == "/usr/bin/systemctl" || program == "/usr/bin/chronyc" else {
                return ChildProcess.run(program, arguments)
            }
            system.calls.withLock { $0.append(arguments) }
            if arguments.first == "restart" { usleep(UInt32(restartSeconds * 1_000_000)) }
            switch arguments {
            case ["reload", "mosquitto.service"]: kill(system.brokerProcess.withLock { $0 }, SIGHUP)
            case ["restart", "mosquitto.service"] where runsBroker:
                // As systemd would: the broker started (again) from the files root wrote.
                system.broker.withLock { broker in
                    broker?.kill()
                    broker = try? Self.startBroker(port: port, root: root, in: directory) { pid in
                        system.brokerProcess.withLock { $0 = pid }
                    }
                }
                if let announcing {
                    try? FileManager.default.copyItem(
                        at: URL(fileURLWithPath: VenuePaths(root: root).announcement), to: announcing)
                }
            case ["disable", "--now", "mosquitto.service"]: system.broker.withLock { $0?.kill() }
            default: break
            }
            return .init(status: 0, output: [])
        }
    }

    /// Root's helper, as the path unit starts it whenever a request appears.
    func serve() -> Thread {
        let thread = Thread { [self] in
            while serving.load(ordering: .relaxed) {
                _ = helper.serve()
                usleep(20_000)
            }
        }
        thread.start()
        return thread
    }

    /// Stops serving, and the broker if it started one.
    func stop() {
        serving.store(false, ordering: .relaxed)
        system.broker.withLock { $0?.kill() }
    }

    func errand(port: Int, patience: TimeAmount = .seconds(20)) -> VenueErrand {
        VenueErrand(
            requestDirectory: runtime, configPath: configPath, clock: SystemClock(), patience: patience,
            brokerPort: port)
    }

    /// The MQTT settings the saved config gives, laid over a board as the box reads it.
    func mqtt() throws -> MQTTSettings? {
        let board = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../board-configs/simulated-host.yaml")
        let loaded = ConfigFile.load(board.standardized.path, overlays: [configPath])
        return try #require(loaded.config, "\(loaded.diagnostics)").mqtt
    }

    /// What the helper asked of the system, and the broker the test started.
    final class System: Sendable {
        /// systemctl's and chronyc's command lines, as the helper gave them.
        let calls = Mutex<[[String]]>([])
        /// The broker's process id, told to reload (SIGHUP) when the helper asks systemd to.
        let brokerProcess = Mutex<Int32>(0)
        /// The broker systemd's restart started (`runsBroker`).
        let broker = Mutex<LaunchedProgram?>(nil)
    }

    /// Whether `user` may publish on its own status topic of the broker at `port`.
    static func logsIn(_ user: String, _ password: String, port: Int) -> Bool {
        let outcome = try? ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/mosquitto_pub"),
            [
                "-h", "127.0.0.1", "-p", String(port), "-u", user, "-P", password, "-i", user,
                "-t", "delaybox/\(user)/status", "-m", "{}",
            ])
        return outcome?.status == 0
    }

    /// The hub's broker, as Debian's mosquitto.conf runs it: our part read from conf.d under
    /// `root`, its log in `directory`; `started` is given its process id (for SIGHUP).
    static func startBroker(port: Int, root: String, in directory: URL, started: (Int32) -> Void) throws
        -> LaunchedProgram
    {
        let log = directory.appendingPathComponent("broker.log")
        let config = directory.appendingPathComponent("mosquitto.conf")
        try """
        persistence false
        log_dest file \(log.path)
        log_type all
        include_dir \(root)/etc/mosquitto/conf.d

        """.write(to: config, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        _ = try? ExternalTool.run(["chown", "mosquitto", log.path])
        // Started with no signal blocked: this process's threads block some, a child inherits
        // the mask, and mosquitto only unblocks the mask it was given — its SIGHUP would wait.
        let unblocked =
            "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])"
        let process = try LaunchedProgram(
            URL(fileURLWithPath: "/usr/bin/python3"), ["-c", unblocked, "/usr/sbin/mosquitto", "-c", config.path])
        started(process.identifier)
        let listening = Eventually.holds(within: 10) {
            ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("listen socket on port \(port)")
        }
        guard listening else {
            throw ExternalTool.Failed(
                description: "mosquitto did not start: " + ((try? String(contentsOf: log, encoding: .utf8)) ?? ""))
        }
        return process
    }
}
