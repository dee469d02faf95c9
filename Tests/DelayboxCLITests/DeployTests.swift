import DelayboxTestSupport
import Foundation
import Testing

/// The deploy scripts on this machine: what the package holds and depends on, the
/// release build's answer when no cross SDK is installed, and install.sh's refusals.
/// (Installing onto a board: VirtualBoardDeployTests.)
@Suite(.timeLimit(.minutes(10))) struct DeployTests {
    static let root = CommandLineTests.root

    /// The C libraries' packages on each release (dpkg-shlibdeps in that release's root):
    /// FFmpeg's is not among them (the box's own is linked in), GnuTLS and zlib, which it
    /// links, are.
    static let libraries = [
        12: ["libasound2 ", "libgpiod2", "libgnutls30 ", "zlib1g", "libyaml-0-2"],
        13: ["libasound2t64", "libgpiod3", "libgnutls30t64", "zlib1g", "libyaml-0-2"],
    ]

    /// The boards make test packages for. (A closure inside `@Test(arguments:)` crashes
    /// Swift 6.0.3's compiler.)
    static let packagedBoards = VirtualBoard.releases.map { "amd64 Debian \($0)" } + ["arm64 Debian 13"]

    /// `arguments` run on `release`: here, or in its build root (tools/debian-root).
    static func inRelease(_ release: Int, _ arguments: [String]) -> [String] {
        release == VirtualBoard.hostRelease
            ? arguments
            : [root.appendingPathComponent("tools/debian-root/run.sh").path, release == 13 ? "trixie" : "bookworm"]
                + arguments
    }

    @Test(
        .enabled(
            if: VirtualBoard.Board(release: VirtualBoard.hostRelease).package != nil,
            "needs the package make test builds (deploy/make-deb.sh)"),
        arguments: VirtualBoard.releases)
    func thePackageHoldsTheServiceItsConfigsAndDependsOnTheCLibrariesOnly(release: Int) throws {
        let package = try #require(
            VirtualBoard.Board(release: release).package, "make test builds the Debian \(release) package")
        // A link's line names two paths: "./usr/bin/delayboxctl -> delaybox".
        let files = Set(
            try ExternalTool.run(["dpkg-deb", "-c", package.path]).split(separator: "\n")
                .compactMap { $0.split(separator: " ").first { $0.hasPrefix("./") }.map { String($0.dropFirst()) } })
        for expected in [
            "/usr/bin/delaybox", "/usr/bin/delayboxctl", "/lib/systemd/system/delaybox.service",
            "/lib/systemd/system/delaybox-autoupdate.timer", "/lib/systemd/system/delaybox-autoupdate.service",
            "/lib/systemd/system/delaybox-board.path", "/lib/systemd/system/delaybox-board.service",
            "/lib/udev/rules.d/60-delaybox-gpio.rules", "/lib/udev/rules.d/70-delaybox-ir.rules",
            "/lib/systemd/system/delaybox-wifi.path", "/lib/systemd/system/delaybox-wifi.service",
            "/lib/systemd/system/delaybox-venue.path", "/lib/systemd/system/delaybox-venue.service",
            "/usr/lib/delaybox/load-keymap", "/usr/share/delaybox/rc_keymaps/car-mp3.toml",
            "/etc/delaybox/delaybox.conf",
            "/usr/share/delaybox/version",
            "/usr/share/delaybox/board-configs/pi4-hifiberry-dacplus.yaml",
            "/usr/share/delaybox/board-configs/base.yaml", "/usr/share/man/man1/delaybox.1.gz",
            "/usr/share/doc/delaybox/console.md", "/usr/share/doc/delaybox/FFMPEG-SOURCE",
        ] {
            #expect(files.contains(expected), "\(expected) in \(files.sorted())")
        }
        #expect(!files.contains("/etc/delaybox/board.yaml"), "the board is chosen at install, not shipped")
        // Issue 66: NetworkManager's rights stay root's (delaybox-wifi.service asks for them).
        #expect(!files.contains { $0.contains("polkit") }, "no polkit rule: \(files.filter { $0.contains("polkit") })")
        let depends = try ExternalTool.run(["dpkg-deb", "-f", package.path, "Depends"])
        for library in Self.libraries[release] ?? [] {
            #expect(depends.contains(library), "\(library) in \(depends)")
        }
        #expect(try ExternalTool.run(["dpkg-deb", "-f", package.path, "Version"]).hasSuffix("~deb\(release)\n"))
        #expect(
            !depends.contains("swift") && !depends.contains("libav") && !depends.contains("libswresample"), "\(depends)"
        )
        #expect(
            try ExternalTool.run(["dpkg-deb", "-I", package.path, "conffiles"]).contains("/etc/delaybox/delaybox.conf"))

        // The programs need no Swift runtime on the board (looked at on their release:
        // under the project, where its build root sees them).
        let tree = Self.root.appendingPathComponent(".build/test-package-\(release)")
        try? FileManager.default.removeItem(at: tree)
        defer { try? FileManager.default.removeItem(at: tree) }
        try ExternalTool.run(["dpkg-deb", "-x", package.path, tree.path])
        for program in ["delaybox", "delayboxctl"] {
            let path = tree.appendingPathComponent("usr/bin/\(program)").path
            let libraries = try ExternalTool.run(Self.inRelease(release, ["ldd", path]))
            #expect(
                !libraries.contains("libswift") && !libraries.contains("libFoundation")
                    && !libraries.contains("not found")
                    && !libraries.contains("libav"), "\(libraries)")
            // The FFmpeg linked in is hardened as Debian's own: its libc calls fortified
            // (__memcpy_chk and the like; Swift's own code calls none).
            let symbols = try ExternalTool.run(["readelf", "--dyn-syms", "-W", path])
            #expect(
                symbols.contains("__memcpy_chk") || symbols.contains("__snprintf_chk"),
                "no fortified call in \(program)")
            // Nor all of Foundation linked in statically: its ICU data ("icudt74l…", 30 MB) would
            // be most of the program (61 MB when `delaybox` imported it; 16 MB without).
            let icu = try ExternalTool.execute(URL(fileURLWithPath: "/bin/grep"), ["-c", "icudt", path])
            #expect(icu.output.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(program) carries ICU's data")
            let bytes = try #require(
                try FileManager.default.attributesOfItem(atPath: tree.appendingPathComponent("usr/bin/delaybox").path)[
                    .size] as? Int)
            #expect(bytes <= 25 * 1_048_576, "\(program): \(bytes / 1_048_576) MB stripped (issue 23: at most 25)")
        }
        // One program: delayboxctl is a link to delaybox, which is delayboxctl by that name.
        let link = tree.appendingPathComponent("usr/bin/delayboxctl").path
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "delaybox")
        let help = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/env"), Self.inRelease(release, [link, "--help"]))
        #expect(
            help.status == 0 && help.output.contains("USAGE: delayboxctl <subcommand>")
                && help.output.contains("status"), "\(help.output)\(help.errors)")
        let unreachable = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/env"),
            Self.inRelease(release, [link, "status", "--socket", "/nonexistent.sock"]))
        #expect(unreachable.status == 3, "exit 3: the appliance cannot be reached; \(unreachable.errors)")
        // The site file as shipped (comments only) passes with every shipped board.
        let check = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/env"),
            Self.inRelease(
                release,
                [
                    tree.appendingPathComponent("usr/bin/delaybox").path, "check-config",
                    tree.appendingPathComponent("usr/share/delaybox/board-configs/pi4-hifiberry-dacplus.yaml").path,
                    "--site", tree.appendingPathComponent("etc/delaybox/delaybox.conf").path,
                ]))
        #expect(check.status == 0, "\(check.output)\(check.errors)")
        let manual = try ExternalTool.run(["sh", "-c", "zcat '\(tree.path)/usr/share/man/man1/delaybox.1.gz'"])
        #expect(manual.contains(".SS \"delaybox run\"") && manual.contains(".SS \"delayboxctl status\""))
    }

    /// Every package a board installs is lintian-clean: no error, no warning, and one
    /// override — the FFmpeg linked in on purpose (issue 40; deploy/debian/lintian-overrides
    /// says why). (Debian 12's lintian, for both releases' packages.)
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/lintian"),
            "needs lintian (deploy/setup-host.sh installs it)"),
        arguments: packagedBoards)
    func thePackageIsLintianClean(board: String) throws {
        let package = try #require(
            board.hasPrefix("arm64")
                ? Arm64Build(root: Self.root).package
                : VirtualBoard.Board(release: Int(board.suffix(2))!).package,
            "make test builds the \(board) package")
        let outcome = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/lintian"),
            ["--fail-on", "error,warning", "--tag-display-limit", "0", package.path])
        let tags = outcome.output.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        #expect(outcome.status == 0 && tags.isEmpty, "\(outcome.output)\(outcome.errors)")
        // (An overridden error still fails lintian when it is shown: --fail-on none.)
        let overridden = try ExternalTool.run([
            "lintian", "--show-overrides", "--fail-on", "none", "--tag-display-limit", "0", package.path,
        ])
        #expect(
            overridden.split(separator: "\n").filter { $0.hasPrefix("O: ") } == [
                "O: delaybox: embedded-library libavutil [usr/bin/delaybox]"
            ],
            "\(overridden)")
    }

    @Test func theMaintainerScriptsAreValidShell() throws {
        for script in ["postinst", "prerm", "postrm", "release-check", "load-keymap"] {
            let outcome = try ExternalTool.execute(
                URL(fileURLWithPath: "/bin/sh"),
                ["-n", Self.root.appendingPathComponent("deploy/debian/\(script)").path])
            #expect(outcome.status == 0, "\(script): \(outcome.errors)")
        }
    }

    /// Issue 57: a club's machine builds a release without the test kit — `make release`
    /// asks `setup-host.sh --release`, whose packages are the build's alone; `make image`
    /// `--image`, the build's and the image's; the default (`make test`'s) has everything.
    @Test func aReleaseIsSetUpWithoutTheTestKit() throws {
        func packages(_ arguments: [String]) throws -> Set<String> {
            let outcome = try ExternalTool.execute(
                Self.root.appendingPathComponent("deploy/setup-host.sh"), arguments + ["--list"])
            #expect(outcome.status == 0, "\(outcome.errors)")
            return Set(outcome.output.split(separator: "\n").map(String.init))
        }
        let release = try packages(["--release"]), everything = try packages([])
        let testKit: Set = ["chromium", "qemu-system-x86", "qemu-system-arm", "icecast2", "mosquitto", "lintian"]
        #expect(release.isDisjoint(with: testKit), "\(release.intersection(testKit))")
        #expect(release.isSuperset(of: ["reprepro", "gnupg", "debootstrap", "dpkg-dev", "libasound2-dev"]))
        #expect(everything.isSuperset(of: release.union(testKit)))
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("release: setup-release\n"), "make release sets up the build's packages only")
        // Issue 68: `make image` sets up the build's and the image's (an emulated arm64 board,
        // the card's FAT and partition table) — no browser, servers or x86 board.
        let image = try packages(["--image"])
        #expect(image.isSuperset(of: release.union(["qemu-system-arm", "dosfstools", "mtools", "fdisk", "zerofree"])))
        #expect(image.isDisjoint(with: testKit.subtracting(["qemu-system-arm"])), "\(image.intersection(testKit))")
        #expect(everything.isSuperset(of: image))
        #expect(makefile.contains("image: setup-image\n"))
    }

    /// armhf (32-bit) has no build root of the project's own (Debian packages no Swift for
    /// it): without an installed SDK the script says what to install.
    @Test(
        .enabled(
            if: !Self.hasSwiftSDK(for: "armv7"),
            "an armv7 Swift SDK is installed: this checks the message for when none is"))
    func aCrossBuildWithoutASwiftSDKSaysWhatToInstall() throws {
        let outcome = try ExternalTool.execute(
            Self.root.appendingPathComponent("deploy/build-release.sh"), ["--arch", "armhf"])
        #expect(outcome.status == 3, "\(outcome.errors)")
        #expect(
            outcome.errors.contains("no Swift SDK for armv7-unknown-linux-gnueabihf is installed"), "\(outcome.errors)")
        #expect(
            outcome.errors.contains("swift sdk install")
                && outcome.errors.contains("libgpiod-dev libyaml-dev libmosquitto-dev for armhf"), "\(outcome.errors)")
        let unknown = try ExternalTool.execute(
            Self.root.appendingPathComponent("deploy/build-release.sh"), ["--arch", "mips"])
        #expect(unknown.status == 2 && unknown.errors.contains("unsupported architecture 'mips'"), "\(unknown.errors)")
    }

    @Test func installRefusesBadArgumentsAndSaysWhenTheBoardCannotBeReached() throws {
        let script = Self.root.appendingPathComponent("deploy/install.sh")
        let noHost = try ExternalTool.execute(script, ["--board", "pi4-hifiberry-dacplus"])
        #expect(noHost.status == 2 && noHost.errors.contains("which board? --host HOST"), "\(noHost.errors)")
        let badBoard = try ExternalTool.execute(script, ["--host", "box", "--board", "../etc/passwd"])
        #expect(
            badBoard.status == 2 && badBoard.errors.contains("--board takes a board config's name"),
            "\(badBoard.errors)")
        let badTimeout = try ExternalTool.execute(script, ["--host", "box", "--timeout", "soon"])
        #expect(
            badTimeout.status == 2 && badTimeout.errors.contains("--timeout takes whole seconds"),
            "\(badTimeout.errors)")
        // The repository's address reaches a shell on the board: nothing a shell would read.
        for url in [
            "http://club.example/r;reboot", "http://club.example/$(id)", "https://club.example/a b",
            "ftp://club.example/r", "file:/srv/delaybox-repo", "file:///srv/r",
        ] {
            let refused = try ExternalTool.execute(script, ["--host", "box", "--from-repo", url])
            #expect(
                refused.status == 2 && refused.errors.contains("--from-repo takes the repository's http(s) address"),
                "\(url): \(refused.errors)")
        }
        // Over plain http, anyone on the path could serve their own entry and key: only with
        // the key's fingerprint (issue 56).
        let plain = try ExternalTool.execute(script, ["--host", "box", "--from-repo", "http://club.example/r"])
        #expect(
            plain.status == 2 && plain.errors.contains("over http:// needs --fingerprint"), "\(plain.errors)")
        let badPrint = try ExternalTool.execute(
            script, ["--host", "box", "--from-repo", "http://club.example/r", "--fingerprint", "ABCD"])
        #expect(
            badPrint.status == 2 && badPrint.errors.contains("--fingerprint takes the key's 40 hex digits"),
            "\(badPrint.errors)")
        let both = try ExternalTool.execute(
            script, ["--host", "box", "--from-repo", "https://club.example/r", "--deb", "x.deb"])
        #expect(both.status == 2 && both.errors.contains("--deb or --from-repo, not both"), "\(both.errors)")
        let port = try LoopbackPort.unused()
        let unreachable = try ExternalTool.execute(
            script, ["--host", "127.0.0.1", "--port", String(port), "--dry-run"])
        #expect(
            unreachable.status == 3 && unreachable.errors.contains("cannot reach root@127.0.0.1 over SSH"),
            "\(unreachable.errors)")
    }

    static func hasSwiftSDK(for cpu: String) -> Bool {
        let listed = try? ExternalTool.run(["sh", "-c", "PATH=$PATH:/opt/swift/usr/bin swift sdk list"])
        return listed?.contains(cpu) ?? false
    }

    /// `make ffmpeg-status` (docs/security.md): the FFmpeg a build bundled against the newest
    /// Debian's archive has — up to date passes; an older one (as after a Debian security
    /// update) fails, saying what to do. Asks Debian's archive, as the command does.
    @Test func ffmpegStatusFailsWhenDebianHasANewerFFmpeg() throws {
        let base = try ExternalTool.temporaryDirectory("ffmpeg-status")
        defer { try? FileManager.default.removeItem(at: base) }
        let built = Self.root.appendingPathComponent(".build/ffmpeg/bookworm-amd64/source-version")
        let current = try String(contentsOf: built, encoding: .utf8)
        let status = Self.root.appendingPathComponent("tools/ffmpeg/status.sh")
        func run(bundling version: String) throws -> (status: Int32, output: String) {
            let directory = base.appendingPathComponent("bookworm-amd64")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try version.write(to: directory.appendingPathComponent("source-version"), atomically: true, encoding: .utf8)
            let outcome = try ExternalTool.execute(status, [], environment: ["FFMPEG_BASE": base.path])
            return (outcome.status, outcome.output + outcome.errors)
        }
        let upToDate = try run(bundling: current)
        #expect(
            upToDate.status == 0
                && upToDate.output.contains("bookworm-amd64  bundled \(current.trimmingCharacters(in: .newlines))"),
            "\(upToDate.output)")
        #expect(
            upToDate.output.contains("bookworm-amd64") && upToDate.output.contains("up to date"), "\(upToDate.output)")
        let behind = try run(bundling: "7:5.1.6-0+deb12u1")
        #expect(
            behind.status == 1
                && behind.output.contains("OUT OF DATE: Debian has \(current.trimmingCharacters(in: .newlines))"),
            "\(behind.output)")
    }
}
