import Foundation

/// Debian's avahi-daemon for a test of what a box hears on its LAN (issue 70): started
/// without D-Bus or a chroot (this machine runs no system bus), on this machine's own
/// interfaces — or, when the system's daemon already runs, that one. A service is announced
/// as a box's root does it, a file in /etc/avahi/services, which the daemon reads again as it
/// changes (inotify); `stop` removes the files named by `serviceFile`.
public final class AvahiDaemon {
    public static let services = URL(fileURLWithPath: "/etc/avahi/services")
    private var startedHere = false
    private var announced: [URL] = []

    /// - Parameter directory: the test's own, for the daemon's configuration.
    public init(in directory: URL) throws {
        let daemon = URL(fileURLWithPath: "/usr/sbin/avahi-daemon")
        guard FileManager.default.isExecutableFile(atPath: daemon.path) else {
            throw ExternalTool.Failed(description: "avahi-daemon is not installed: run `make setup`")
        }
        try FileManager.default.createDirectory(at: Self.services, withIntermediateDirectories: true)
        if (try? ExternalTool.execute(daemon, ["--check"]))?.status == 0 { return }
        let config = directory.appendingPathComponent("avahi-daemon.conf")
        try """
        [server]
        use-ipv4=yes
        use-ipv6=no
        enable-dbus=no
        ratelimit-interval-usec=1000000
        ratelimit-burst=1000
        [publish]
        publish-hinfo=no
        publish-workstation=no

        """.write(to: config, atomically: true, encoding: .utf8)
        // Daemonized (-D), not a child the test waits on: Foundation's Process, reaping another
        // child, was seen blocking in wait4 on the foreground daemon's pid for good. Its log
        // then goes to syslog; `--check` says when it runs.
        let started = try ExternalTool.execute(
            daemon, ["-D", "-f", config.path, "--no-drop-root", "--no-chroot", "--no-rlimits"])
        guard started.status == 0,
            Eventually.holds(within: 20, every: 0.1, { (try? ExternalTool.execute(daemon, ["--check"]))?.status == 0 })
        else {
            throw ExternalTool.Failed(description: "avahi-daemon did not start: \(started.output)\(started.errors)")
        }
        startedHere = true
    }

    /// Where a service file named `name` announces a service (written by the test, or by a
    /// test's stand-in for root); removed by `stop`.
    public func serviceFile(_ name: String) -> URL {
        let file = Self.services.appendingPathComponent("\(name).service")
        announced.append(file)
        return file
    }

    public func stop() {
        for file in announced { try? FileManager.default.removeItem(at: file) }
        announced = []
        if startedHere { _ = try? ExternalTool.execute(URL(fileURLWithPath: "/usr/sbin/avahi-daemon"), ["-k"]) }
        startedHere = false
    }

    deinit { stop() }
}
