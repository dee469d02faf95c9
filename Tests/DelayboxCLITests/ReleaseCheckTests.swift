import DelayboxTestSupport
import Foundation
import Testing

/// The package's updater (deploy/debian/release-check) on this machine, in a mount namespace
/// of its own: its directories (/var/lib/delaybox-release, /var/lib/delaybox, /run/delaybox)
/// and /etc/passwd (a `delaybox` user, whose request files it takes) bound over from a test
/// directory, apt-get, apt-cache and dpkg-query stand-ins that say what is installed and
/// what the sources have and note how they were called. The whole updater runs on the
/// virtual boards (VirtualBoardDeployTests); here, the page's "Check now" and nightly
/// updates switched off, which those do not walk.
@Suite(
    .serialized, .enabled(if: getuid() == 0, "needs root for a mount namespace (make test runs as root in CI)"),
    .timeLimit(.minutes(10)))
struct ReleaseCheckTests {
    let place: URL

    init() throws {
        place = try ExternalTool.temporaryDirectory("release-check")
        for name in ["bin", "store", "state", "run"] {
            try FileManager.default.createDirectory(
                at: place.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let standIns = [
            "apt-get": "echo \"apt-get $*\" >> \(place.path)/calls",
            "apt-cache": """
            echo "apt-cache $*" >> \(place.path)/calls
            case "$1" in
              policy) printf 'delaybox:\\n  Installed: 1.2.0-1~deb13\\n  Candidate: %s\\n' "$CANDIDATE" ;;
              madison) echo " delaybox | $CANDIDATE | http://club.example main" ;;
            esac
            """,
            "dpkg-query": "printf 'install ok installed 1.2.0-1~deb13'",
        ]
        for (name, body) in standIns {
            let file = place.appendingPathComponent("bin/\(name)")
            try "#!/bin/sh\n\(body)\n".write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        try (passwd + "delaybox:x:4242:4242::/nonexistent:/usr/sbin/nologin\n").write(
            to: place.appendingPathComponent("passwd"), atomically: true, encoding: .utf8)
    }

    /// release-check `mode` in its namespace, the sources' newest `candidate`.
    func releaseCheck(_ mode: String, candidate: String) throws -> ExternalTool.Outcome {
        let script = """
            set -e
            mount --bind \(place.path)/passwd /etc/passwd
            mkdir -p /var/lib/delaybox-release /var/lib/delaybox /run/delaybox
            mount --bind \(place.path)/store /var/lib/delaybox-release
            mount --bind \(place.path)/state /var/lib/delaybox
            mount --bind \(place.path)/run /run/delaybox
            PATH=\(place.path)/bin:$PATH exec sh \(CommandLineTests.root.path)/deploy/debian/release-check \(mode)
            """
        return try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/unshare"), ["-m", "--propagation", "private", "sh", "-c", script],
            environment: ["CANDIDATE": candidate])
    }

    /// Leaves the service's request, a file of the `delaybox` user.
    func ask(_ line: String) throws {
        let path = place.appendingPathComponent("run/update-request").path
        try (line + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.ownerAccountID: 4242], ofItemAtPath: path)
    }

    var status: String {
        (try? String(contentsOf: place.appendingPathComponent("store/status"), encoding: .utf8)) ?? ""
    }
    var calls: String { (try? String(contentsOf: place.appendingPathComponent("calls"), encoding: .utf8)) ?? "" }

    @Test func checkNowLooksAndInstallsNothing() throws {
        try ask("check")
        let newer = try releaseCheck("--update", candidate: "1.4.0-1~deb13")
        #expect(newer.status == 0, "\(newer.output)\(newer.errors)")
        #expect(status.contains(": 1.4.0-1~deb13 is available (1.2.0-1~deb13 plays)"), "\(status)")
        #expect(status.hasPrefix("checked 20"), "when it looked: \(status)")
        #expect(calls.contains("apt-get update") && !calls.contains("apt-get install"), "\(calls)")
        try ask("check")
        _ = try releaseCheck("--update", candidate: "1.2.0-1~deb13")
        #expect(status.hasPrefix("up to date: 1.2.0-1~deb13 (checked 20"), "\(status)")
        // The request is taken once: no request, no check (a plain update then).
        #expect(!FileManager.default.fileExists(atPath: place.appendingPathComponent("run/update-request").path))
    }

    @Test func nightlyUpdatesSwitchedOffOnThePageDoNothing() throws {
        try "off\n".write(
            to: place.appendingPathComponent("state/daily-updates"), atomically: true, encoding: .utf8)
        let off = try releaseCheck("--auto", candidate: "1.4.0-1~deb13")
        #expect(off.status == 0 && off.output.contains("daily updates are off"), "\(off.output)\(off.errors)")
        #expect(calls.isEmpty && status.isEmpty, "nothing looked for: \(calls)")
        try "on\n".write(
            to: place.appendingPathComponent("state/daily-updates"), atomically: true, encoding: .utf8)
        _ = try releaseCheck("--auto", candidate: "1.2.0-1~deb13")
        #expect(calls.contains("apt-get update") && status.hasPrefix("up to date: 1.2.0-1~deb13"), "\(status)")
    }
}
