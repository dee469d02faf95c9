import DelayboxTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension VirtualBoard.Board {
    /// What the deploy tests need: the board, its own root filesystem
    /// (tools/virtual-board/build-rootfs.sh) and the release package `make test` builds.
    var isDeployable: Bool {
        isAvailable && package != nil
            && FileManager.default.fileExists(atPath: directory.appendingPathComponent("rootfs.img").path)
    }
}

/// Deploy end to end: deploy/install.sh puts the release package on the virtual boards —
/// Debian with systemd and an SSH server (debootstrap), snd-aloop and gpio-sim: this
/// machine's release on its CPU and the Pi's, Debian 13 on arm64 — reached only through a
/// port forwarded on loopback. The boards run at once (nothing here is timed finely), each
/// with as many emulated CPUs as this machine has cores for it (tools/virtual-board/boot.sh:
/// more is slower).
@Suite(
    .enabled(if: VirtualBoard.asked, VirtualBoard.notAsked),
    .enabled(
        if: VirtualBoard.boards.allSatisfy(\.isDeployable) || (getuid() == 0 && VirtualBoard.asked),
        "needs QEMU, the virtual boards' root filesystems and their release packages (make test builds them)"),
    .timeLimit(.minutes(30)))
struct VirtualBoardDeployTests {
    static let root = CommandLineTests.root
    let key = CommandLineTests.root.appendingPathComponent(".build/virtual-board/key/id_ed25519").path
    /// A board's emulated CPUs: BOARD_CPUS when the runner says (tools/board-tests.sh runs
    /// a process per board, at once: a core each), else this machine's cores shared by this
    /// run's boards, which run at once.
    static func cpus(for board: VirtualBoard.Board) -> Int {
        if let said = ProcessInfo.processInfo.environment["BOARD_CPUS"].flatMap({ Int($0) }), said > 0 {
            return said
        }
        return max(1, ProcessInfo.processInfo.activeProcessorCount / VirtualBoard.boards.count)
    }

    /// A good release installs and plays; installing it again does nothing; a dry run of a
    /// broken one changes nothing; the broken one (its program exits at once) fails its
    /// health check and the previous release is put back and plays again.
    @Test(arguments: VirtualBoard.boards)
    func aGoodReleaseInstallsAndABrokenOneIsRolledBack(board: VirtualBoard.Board) throws {
        try #require(board.isDeployable, "the \(board) board's root filesystem and package (make test builds them)")
        let directory = try ExternalTool.temporaryDirectory("deploy")
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try #require(board.package)
        let release = board.release
        let goodVersion = try ExternalTool.run(["dpkg-deb", "-f", good.path, "Version"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        #expect(goodVersion.hasSuffix("~deb\(release)"), "the package says its release: \(goodVersion)")
        let broken = try Self.brokenRelease(of: good, in: directory)
        let brokenVersion = try ExternalTool.run(["dpkg-deb", "-f", broken.path, "Version"]).trimmingCharacters(
            in: .whitespacesAndNewlines)

        // Where the time goes, step by step, in make test's log: the seconds since the boot.
        let began = Date()
        func lap(_ step: String) {
            print("deploy: Debian \(release) \(board.arch): \(step) at \(Int(Date().timeIntervalSince(began))) s")
        }
        let port = try LoopbackPort.unused(), webPort = try LoopbackPort.unused(), relayPort = try LoopbackPort.unused()
        let boot = [
            "WEB_PORT": String(webPort), "RELAY_PORT": String(relayPort), "BOARD_CPUS": String(Self.cpus(for: board)),
        ]
        let machine = try LaunchedProgram(
            Self.root.appendingPathComponent("tools/virtual-board/boot.sh"), [directory.path, String(port)],
            environment: board.environment.merging(boot) { $1 })
        let login = Login(
            port: port, key: key, knownHosts: directory.appendingPathComponent("known_hosts").path,
            connection: directory.appendingPathComponent("ssh").path)
        defer {
            login.close()
            machine.kill()
        }
        try login.waitForSSH(seconds: board.allowing(180), console: directory.appendingPathComponent("console.log"))
        lap("booted, SSH answers")

        let first = try install(login, ["--board", board.boardConfig, "--deb", good.path])
        lap("first release installed and checked")
        #expect(first.status == 0, "\(first.errors)")
        #expect(first.errors.contains("\(goodVersion) on 127.0.0.1: healthy: playing"), "\(first.errors)")
        #expect(first.errors.contains("the board: \(board.arch), Debian \(release),"), "\(first.errors)")
        // …and the FFmpeg built into it: this release's, from the Debian source tools/ffmpeg built.
        let bundled = try String(
            contentsOf: CommandLineTests.root.appendingPathComponent(
                ".build/ffmpeg/\(release == 13 ? "trixie" : "bookworm")-\(board.arch)/source-version"), encoding: .utf8)
        let ffmpeg =
            bundled.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ":", maxSplits: 1).last.map(
                String.init) ?? ""
        #expect(
            try login.run("delayboxctl version") == "version: \(goodVersion)\nffmpeg: \(ffmpeg)",
            "the installed program says its package's version")
        // The page, served by the installed package on the board's port 80 (systemd's socket,
        // the service unprivileged), reached from the host; found by Avahi's service file.
        let session = try ExternalTool.run([
            "curl", "-s", "--max-time", "10", "http://127.0.0.1:\(webPort)/api/session",
        ])
        #expect(session.contains("\"password_set\":false"), "the page from the host: \(session)")
        // The page by number, read from the box's own addresses (netlink, which the unit
        // allows): QEMU's user network gives the board 10.0.2.15.
        #expect(
            try login.run("delayboxctl status").contains("page_by_number: http://10.0.2.15/"),
            "the unprivileged service reads its addresses")
        let units = try login.run(
            "systemctl is-active delaybox.socket; systemctl show -p User --value delaybox.service; "
                + "ls /etc/avahi/services/delaybox.service /etc/NetworkManager/conf.d/delaybox-wifi-powersave.conf")
        #expect(units.hasPrefix("active\ndelaybox\n") && units.contains("delaybox-wifi-powersave.conf"), "\(units)")
        // The service reads IR receivers given to its group by the udev rule, not every
        // input device as `input` would give it (issue 56).
        let groups = try login.run("id -nG delaybox; systemctl show -p SupplementaryGroups --value delaybox.service")
        #expect(!groups.split(whereSeparator: \.isWhitespace).contains("input"), "\(groups)")
        if board.arch != "amd64",
            let other = VirtualBoard.releases.lazy.compactMap({ VirtualBoard.Board(release: $0).package }).first
        {
            let refused = try install(login, ["--deb", other.path])
            #expect(refused.status == 2 && refused.errors.contains("the board is \(board.arch)"), "\(refused.errors)")
        } else if VirtualBoard.releases.count > 1,
            let other = VirtualBoard.Board(release: release == 12 ? 13 : 12).package
        {
            let refused = try install(login, ["--deb", other.path])
            #expect(
                refused.status == 2 && refused.errors.contains("is not for Debian \(release), which the board runs"),
                "\(refused.errors)")
        }

        // Again, now also setting the page's password as an installer does.
        let again = try install(login, ["--deb", good.path, "--web-password"], input: Self.pagePassword + "\n")
        lap("installed again, with the page's password")
        #expect(
            again.status == 0 && again.errors.contains("\(goodVersion) is installed already and healthy: playing")
                && again.errors.contains("nothing to do"), "\(again.errors)")
        #expect(again.errors.contains("the web page's password is set"), "\(again.errors)")
        let withPassword = try ExternalTool.run([
            "curl", "-s", "--max-time", "10", "http://127.0.0.1:\(webPort)/api/session",
        ])
        #expect(withPassword.contains("\"password_set\":true"), "\(withPassword)")
        #expect(try login.run("stat -c '%U %a' /var/lib/delaybox/web-password") == "delaybox 600")
        #expect(!again.errors.contains("copying"), "the same release is not copied again: \(again.errors)")

        // The board chosen as the page's owner chooses it (issue 57): the unprivileged box
        // leaves the name, root's delaybox-board.service runs `delaybox board` and restarts
        // the box on it.
        let beforeBoard = try login.run("systemctl show -p MainPID --value delaybox.service")
        let boardAsked = try login.run("delayboxctl board use \(board.boardConfig)")
        #expect(boardAsked.contains("board: asked for \(board.boardConfig)"), "\(boardAsked)")
        let chosen = Eventually.holds(within: Double(board.allowing(90)), every: 1) {
            let pid = (try? login.run("systemctl show -p MainPID --value delaybox.service")) ?? ""
            return login.releaseState().contains("board \(board.boardConfig) chosen") && pid != beforeBoard
                && pid != "0" && ((try? login.run("delayboxctl status")) ?? "").contains("state: playing")
        }
        lap("a board chosen at the console, the box playing on it")
        #expect(chosen, "\(login.releaseState())")
        #expect(
            try login.run("cat /etc/delaybox/board.yaml")
                == "# Written by `delaybox board`: this box's board, the shipped file by its name.\n"
                + "extends: /usr/share/delaybox/board-configs/\(board.boardConfig).yaml",
            "written by root's helper")

        let dry = try install(login, ["--deb", broken.path, "--dry-run"])
        #expect(dry.status == 0 && dry.errors.contains("dry run: would install \(brokenVersion)"), "\(dry.errors)")
        #expect(dry.errors.contains("on failure, would roll back to \(goodVersion)"), "\(dry.errors)")
        #expect(try login.run("dpkg-query -W -f='${Version}' delaybox") == goodVersion, "a dry run changes nothing")

        let bad = try install(login, ["--deb", broken.path, "--timeout", "60"])
        lap("broken release installed and rolled back")
        #expect(bad.status == 1, "exit 1: failed and rolled back; \(bad.errors)")
        #expect(bad.errors.contains("\(brokenVersion) on 127.0.0.1 failed its check"), "\(bad.errors)")
        #expect(bad.errors.contains("journal: delaybox: broken on purpose"), "the board's own words: \(bad.errors)")
        #expect(bad.errors.contains("rolled back to \(goodVersion) on 127.0.0.1: healthy: playing"), "\(bad.errors)")
        #expect(try login.run("dpkg-query -W -f='${Version}' delaybox") == goodVersion)
        let status = try login.run("delayboxctl status")
        #expect(status.contains("state: playing") && status.contains("channel: Demo"), "\(status)")
        let unit = try login.run("systemctl show -p ActiveState -p SubState -p User delaybox.service")
        #expect(
            unit.contains("ActiveState=active") && unit.contains("SubState=running") && unit.contains("User=delaybox"),
            "\(unit)")
        // Unprivileged and without a capability, the service's threads still get real-time
        // priority: within its LimitRTPRIO, through its system call filter.
        let stats = try login.run("delayboxctl stats")
        #expect(stats.contains("audio_thread: fifo 50\nplayout_thread: fifo 40"), "\(stats)")

        // apt itself installs the broken release (as the daily timer or unattended-upgrades
        // would) while the box plays: the new release waits for the final whistle — here a
        // pause, the update window off — then the box's own healer checks it, puts the
        // kept release back, and pins the broken version away (issue 57).
        #expect(
            try login.run("cat /var/lib/delaybox-release/healthy") == goodVersion,
            "install.sh told the healer which release plays")
        try login.copy(broken, to: "/tmp/broken.deb")
        _ = try login.run(
            "printf 'update:\\n  window: none\\n' >> /etc/delaybox/delaybox.conf && systemctl reload delaybox")
        lap("broken release copied for apt")
        let playing = try login.run("systemctl show -p MainPID --value delaybox.service")
        let apt = try login.run(
            "DEBIAN_FRONTEND=noninteractive apt-get install -y -q --allow-downgrades /tmp/broken.deb >/dev/null 2>&1; echo $?"
        )
        #expect(apt == "0", "apt installed the broken release: \(apt)")
        let waiting = Eventually.value(within: Double(board.allowing(60)), every: 1) { () -> String? in
            let state = login.releaseState()
            return state.contains("starts once the box is quiet") ? state : nil
        }
        #expect(waiting?.contains("(waits: playing (the update window: none))") == true, "\(login.releaseState())")
        #expect(
            try login.run("sleep 6; systemctl show -p MainPID --value delaybox.service") == playing,
            "the box plays on, the process it had")
        #expect(try login.run("delayboxctl pause").contains("paused"))
        let installedAt = Date()
        let healed = Eventually.holds(within: Double(board.allowing(240)), every: 1) {
            let state = login.releaseState()
            return state.contains("plays again") && state.hasSuffix(goodVersion)
        }
        let rollback = Date().timeIntervalSince(installedAt)
        print(
            "deploy: Debian \(release) \(board.arch): a pause after apt-get install of a broken release to the previous one playing again: \(String(format: "%.1f", rollback)) s"
        )
        lap("the box's healer put the kept release back")
        let journal = (try? login.run("journalctl -u delaybox-release-check --no-pager -o cat | tail -20")) ?? ""
        #expect(healed, "rolled back by the box itself within \(Int(rollback)) s:\n\(journal)")
        let healedStatus = try login.run("delayboxctl status")
        #expect(
            healedStatus.contains("state: playing")
                && healedStatus.contains("release: rolled back: \(brokenVersion) failed its check"),
            "\(healedStatus)")
        #expect(
            try login.run("cat /etc/apt/preferences.d/delaybox-failed-release").contains(
                "Pin: version \(brokenVersion)"))
        #expect(
            try login.run("cat /var/lib/delaybox/web-password | cut -c1-3") == "$y$", "the settings survive both ways")

        // A venue's newer release in its signed repository (on the board's disk: the board
        // reaches nothing on the network), and `update VERSION` asked at the console (what
        // a group's box asks once its canary plays that version).
        // (Named as make-repo.sh takes a package: …~debN_ARCH.deb.)
        let newer = try Self.variant(
            of: good, in: directory, named: "newer", version: ".1",
            file: "delaybox_newer~deb\(release)_\(board.arch).deb")
        let newerVersion = try ExternalTool.run(["dpkg-deb", "-f", newer.path, "Version"]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let key = try ReleaseRepositoryTests.throwawayKey("Venue", in: directory)
        let repo = directory.appendingPathComponent("repo")
        let made = try ExternalTool.execute(
            Self.root.appendingPathComponent("deploy/make-repo.sh"),
            ["--key", key.path, "--url", "file:/srv/delaybox-repo", "--out", repo.path, newer.path])
        #expect(made.status == 0, "\(made.errors)")
        try login.copy(repo, to: "/srv/delaybox-repo")
        let suite = release == 12 ? "bookworm" : "trixie"
        // The same repository with its signed index changed after signing: the board's apt
        // refuses it and offers nothing from it.
        let tampered = try login.run(
            """
            cp -a /srv/delaybox-repo /srv/tampered && sed -i 's/^Suite: .*/&-changed/' /srv/tampered/dists/\(suite)/InRelease \
              && sed 's|file:/srv/delaybox-repo|file:/srv/tampered|' /srv/delaybox-repo/\(suite).sources > /etc/apt/sources.list.d/tampered.sources \
              && apt-get update -q 2>&1 | grep -E 'tampered' | grep -E '^(E|W):' | head -2; \
            apt-cache policy delaybox | grep -c tampered; rm -rf /etc/apt/sources.list.d/tampered.sources /srv/tampered
            """)
        #expect(
            tampered.contains("not signed") || tampered.contains("BADSIG") || tampered.contains("invalid"),
            "apt refused it: \(tampered)")
        #expect(tampered.hasSuffix("0"), "nothing offered from it: \(tampered)")
        _ = try login.run("cp /srv/delaybox-repo/\(suite).sources /etc/apt/sources.list.d/delaybox.sources")
        lap("repository copied, a tampered one refused")
        // The club's station is off the air (a closed port): the new release is judged by
        // its own health, not the station's, and kept (issue 57).
        _ = try login.run(
            """
            cp /etc/delaybox/delaybox.conf /etc/delaybox/delaybox.conf.kept \
              && printf 'channels:\\n  - name: Off air\\n    url: http://127.0.0.1:9/live\\n' > /etc/delaybox/delaybox.conf \
              && systemctl reload delaybox
            """)
        let asked = Date()
        #expect(try login.run("delayboxctl update \(newerVersion)").contains("update: asked for \(newerVersion)"))
        let updated = Eventually.holds(within: Double(board.allowing(300)), every: 1) {
            let state = login.releaseState()
            return state.contains("\(newerVersion) playing") && state.hasSuffix(newerVersion)
        }
        print(
            "deploy: Debian \(release) \(board.arch): `update` at the console to the newer release playing: \(String(format: "%.1f", Date().timeIntervalSince(asked))) s"
        )
        let updateLog =
            (try? login.run("journalctl -u delaybox-update -u delaybox-release-check --no-pager -o cat | tail -20"))
            ?? ""
        #expect(updated, "updated from the repository and checked, the station off the air:\n\(updateLog)")
        #expect(try login.run("delayboxctl status").contains("channel: Off air"), "the station was off the air")
        _ = try login.run(
            "mv /etc/delaybox/delaybox.conf.kept /etc/delaybox/delaybox.conf && systemctl reload delaybox")

        // The service's user owns its runtime directory: a link to a root-only file, or a
        // FIFO, left as the request is refused by root's updater, which neither shows the
        // file's bytes in `status` nor hangs (issue 56).
        _ = try login.run("cp /var/lib/delaybox-release/status /var/lib/delaybox-release/status.kept")
        for (what, make) in [
            ("a link to /etc/shadow", "ln -s /etc/shadow /run/delaybox/update-request"),
            ("a FIFO", "mkfifo /run/delaybox/update-request"),
        ] {
            _ = try login.run("runuser -u delaybox -- \(make)")
            let refused = Eventually.value(within: 60, every: 1) { () -> String? in
                let status = (try? login.run("cat /var/lib/delaybox-release/status")) ?? ""
                return status.contains("update refused") ? status : nil
            }
            #expect(refused?.contains("not the service's own file") == true, "\(what): \(refused ?? "no answer")")
            #expect(refused?.contains("root:") == false, "\(what): \(refused ?? "")")
            #expect(try login.run("ls /run/delaybox/").contains("update-request") == false, "\(what) left behind")
            _ = try login.run("cp /var/lib/delaybox-release/status.kept /var/lib/delaybox-release/status")
        }

        // A developer's install.sh adding the repository instead of copying a package, over
        // plain http (this machine's server, reached from the board through the SSH
        // connection) with the key's fingerprint and a board config named: the board
        // fetches the entry, install.sh checks it, apt checks the signature, the release
        // installs and plays. A wrong fingerprint adds nothing.
        _ = try login.run("rm /etc/apt/sources.list.d/delaybox.sources")
        let served = directory.appendingPathComponent("served")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        let server = try StaticHTTPServer(directory: served)
        let address = server.url("").trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let remade = try ExternalTool.execute(
            Self.root.appendingPathComponent("deploy/make-repo.sh"),
            ["--key", key.path, "--url", address, "--out", served.path, newer.path])
        #expect(remade.status == 0, "\(remade.errors)")
        let tunnel = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/ssh"),
            [
                "-o", "ControlPath=\(login.connection)", "-O", "forward", "-R",
                "127.0.0.1:\(server.port):127.0.0.1:\(server.port)", "\(login.user)@127.0.0.1",
            ])
        #expect(tunnel.status == 0, "\(tunnel.errors)")
        let fingerprint = try String(contentsOf: served.appendingPathComponent("KEY-FINGERPRINT.txt"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let wrong = try install(
            login, ["--from-repo", address, "--fingerprint", String(repeating: "AB", count: 20)])
        #expect(
            wrong.status == 3 && wrong.errors.contains("not the fingerprint given")
                && wrong.errors.contains("nothing was added"), "\(wrong.errors)")
        #expect(try login.run("ls /etc/apt/sources.list.d/").contains("delaybox") == false)
        // At a saved delay of 300 s the restarted box records for minutes before it plays:
        // the release is healthy all the same (issue 57).
        #expect(try login.run("delayboxctl delay 300").contains("300000"))
        let fromRepo = try install(
            login, ["--from-repo", address, "--fingerprint", fingerprint, "--board", board.boardConfig])
        lap("updated at the console, then installed from the repository over http at a 300 s delay")
        #expect(
            fromRepo.status == 0 && fromRepo.errors.contains("\(newerVersion) on 127.0.0.1: healthy: ")
                && fromRepo.errors.contains("300000 ms delay"), "\(fromRepo.errors)")
        #expect(
            try login.run("apt-cache policy delaybox").contains("\(address) \(suite)/main"),
            "the box follows the repository")
        // On this machine's board (the arm64 board is emulated: a third of the speed) the
        // daily timer's path, and the Wi-Fi: it has NetworkManager and simulated radios.
        if board.arch == "amd64" {
            try theDailyUpdateInstallsTheNextReleaseWhenTheBoxIsQuiet(
                login, board: board, good: good, directory: directory, repository: served, key: key, server: server,
                lap: lap)
            try aLostBoxIsFoundThroughItsHotspot(
                login, board: board, relayPort: relayPort, directory: directory, lap: lap)
        }
    }

    func install(_ login: Login, _ arguments: [String], input: String? = nil) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(
            Self.root.appendingPathComponent("deploy/install.sh"),
            [
                "--host", "127.0.0.1", "--port", String(login.port), "--identity", login.key,
                "--ssh-option", "UserKnownHostsFile=\(login.knownHosts)",
            ] + arguments, input: input)
    }

    /// The good package with its program replaced by one that exits at once, as a newer
    /// version for the same release (`X.broken~debN` sorts after `X~debN`).
    /// A release whose service cannot start (`delaybox run` exits at once) while its tools
    /// work — `delayboxctl`, which the release check asks the running box with — as a
    /// release with a bug at start would be.
    static func brokenRelease(of good: URL, in directory: URL) throws -> URL {
        try variant(
            of: good, in: directory, named: "broken", version: ".broken",
            program: """
                #!/bin/bash
                if [ "$(basename "$0")" = delaybox ] && [ "${1:-}" = run ]; then
                  echo "delaybox: broken on purpose" >&2; exit 1
                fi
                exec -a "$(basename "$0")" /usr/lib/delaybox/working-delaybox "$@"

                """, keepingProgramAs: "usr/lib/delaybox/working-delaybox")
    }

    /// `good` again as another version (`suffix` before its `~debN`), and with `program` as
    /// its delaybox when given.
    static func variant(
        of good: URL, in directory: URL, named name: String, version suffix: String, program: String? = nil,
        keepingProgramAs kept: String? = nil, file: String? = nil
    ) throws -> URL {
        let tree = directory.appendingPathComponent(name)
        try ExternalTool.run(["dpkg-deb", "-R", good.path, tree.path])
        if let program {
            let path = tree.appendingPathComponent("usr/bin/delaybox")
            if let kept { try FileManager.default.moveItem(at: path, to: tree.appendingPathComponent(kept)) }
            try program.write(to: path, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path.path)
        }
        let control = tree.appendingPathComponent("DEBIAN/control")
        let fields = try String(contentsOf: control, encoding: .utf8)
        try fields.replacingOccurrences(
            of: #"(?m)^Version: (.*)(~deb[0-9]+)$"#, with: "Version: $1\(suffix)$2", options: .regularExpression
        )
        .write(to: control, atomically: true, encoding: .utf8)
        let package = directory.appendingPathComponent(file ?? "\(name).deb")
        try ExternalTool.run(["dpkg-deb", "--root-owner-group", "-Zxz", "-z1", "--build", tree.path, package.path])
        return package
    }

    /// Root on the virtual board over SSH, through the loopback port forward: one connection
    /// shared by every command and copy (a login to the emulated board took 1.8 s, a command
    /// on the shared connection 0.4 s), until `close()`. It persists the whole test: the
    /// repository's reverse forward lives on it, and an install.sh run of minutes leaves it
    /// idle (with 60 s it went, and the board's apt found the repository gone).
    struct Login {
        var port: Int
        var key: String
        var knownHosts: String
        /// The shared connection's socket.
        var connection: String
        /// Who logs in.
        var user = "root"

        var options: [String] {
            [
                "-o", "BatchMode=yes", "-o", "ConnectTimeout=5", "-o", "StrictHostKeyChecking=accept-new",
                "-o", "UserKnownHostsFile=\(knownHosts)", "-o", "LogLevel=ERROR", "-i", key, "-p", String(port),
                "-o", "ControlMaster=auto", "-o", "ControlPath=\(connection)", "-o", "ControlPersist=1200",
                "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=6",
            ]
        }

        /// Ends the shared connection (its process would outlive the test otherwise).
        func close() {
            _ = try? ExternalTool.execute(
                URL(fileURLWithPath: "/usr/bin/ssh"),
                ["-o", "ControlPath=\(connection)", "-O", "exit", "\(user)@127.0.0.1"])
        }

        /// Runs `command` on the board; its output, trimmed.
        func run(_ command: String) throws -> String {
            try ExternalTool.run(["ssh"] + options + ["\(user)@127.0.0.1", command]).trimmingCharacters(
                in: .whitespacesAndNewlines)
        }

        /// What the box's release checker last said, then the installed version: empty while
        /// the board does not answer.
        func releaseState() -> String {
            (try? run("cat /var/lib/delaybox-release/status; dpkg-query -W -f='${Version}' delaybox")) ?? ""
        }

        /// Copies a file (or a folder, whole) to the board.
        func copy(_ file: URL, to path: String) throws {
            try ExternalTool.run(
                ["scp", "-r"] + options.map { $0 == "-p" ? "-P" : $0 } + [file.path, "\(user)@127.0.0.1:\(path)"])
        }

        /// Polls until the board's SSH server answers (the board boots under emulation).
        func waitForSSH(seconds: Int, console: URL) throws {
            // Up (`running`, or `degraded` when some unit failed): it answers.
            let up = Eventually.holds(within: Double(seconds), every: 2) {
                (try? run("systemctl is-system-running --wait || true")) != nil
            }
            if up { return }
            let log = (try? String(contentsOf: console, encoding: .utf8)) ?? ""
            throw ExternalTool.Failed(
                description:
                    "the virtual board did not answer on SSH within \(seconds) s; its console:\n\(log.suffix(3000))")
        }
    }
}
