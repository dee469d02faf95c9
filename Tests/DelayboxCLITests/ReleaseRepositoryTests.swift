import DelayboxTestSupport
import Foundation
import Testing

/// The signed apt repository a club publishes (issue 41, deploy/make-repo.sh): made from
/// the packages `make test` builds with a key made here and thrown away, served over http
/// on loopback, and read by apt itself (this machine's, in a state directory of the test's
/// own, nothing of the system's touched): each release's suite offers its package, which
/// downloads with the hashes the signed index gives; a repository whose signature does not
/// verify, or that another key signed, offers nothing.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ReleaseRepositoryTests {
    static let root = CommandLineTests.root
    /// The amd64 packages of both releases, and the Pi's (arm64, Debian 13) when made.
    static var packages: [URL] {
        VirtualBoard.releases.compactMap { VirtualBoard.Board(release: $0).package }
            + [Arm64Build(root: root).package].compactMap { $0 }
    }
    static let suites = [12: "bookworm", 13: "trixie"]

    /// A new signing key, exported as a secret key file in `directory` (as a club keeps it),
    /// protected by `passphrase` when one is given.
    static func throwawayKey(_ name: String, in directory: URL, passphrase: String = "") throws -> URL {
        let home = directory.appendingPathComponent("gnupg-\(name)")
        try FileManager.default.createDirectory(
            at: home, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let gpg = [
            "env", "GNUPGHOME=\(home.path)", "gpg", "--batch", "--pinentry-mode", "loopback", "--passphrase",
            passphrase,
        ]
        try ExternalTool.run(
            gpg + ["--quick-gen-key", "\(name) <releases@club.example>", "default", "default", "never"])
        let key = directory.appendingPathComponent("\(name).key")
        try ExternalTool.run(gpg + ["--armor", "--output", key.path, "--export-secret-keys"])
        _ = try? ExternalTool.run(["env", "GNUPGHOME=\(home.path)", "gpgconf", "--kill", "all"])
        return key
    }

    /// apt as a box runs it, but on a state directory of its own with `sources` as its
    /// only source and no key but the one the source carries.
    struct Apt {
        let directory: URL
        init(in parent: URL, name: String, sources: String) throws {
            directory = parent.appendingPathComponent("apt-\(name)")
            for sub in ["lists/partial", "cache/archives/partial", "sources.list.d", "trusted.gpg.d", "preferences.d"] {
                try FileManager.default.createDirectory(
                    at: directory.appendingPathComponent(sub), withIntermediateDirectories: true)
            }
            _ = FileManager.default.createFile(atPath: directory.appendingPathComponent("status").path, contents: nil)
            try sources.write(
                to: directory.appendingPathComponent("sources.list.d/delaybox.sources"), atomically: true,
                encoding: .utf8)
        }

        /// `tool` (apt-get, apt-cache) on this state, in its directory (where `download` writes).
        func run(_ tool: String, _ arguments: [String]) throws -> ExternalTool.Outcome {
            let d = directory.path
            return try ExternalTool.execute(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "-C", d, tool,
                    "-o", "Dir::Etc::SourceList=/dev/null", "-o", "Dir::Etc::SourceParts=\(d)/sources.list.d",
                    "-o", "Dir::State::Lists=\(d)/lists", "-o", "Dir::Cache=\(d)/cache", "-o",
                    "Dir::State::status=\(d)/status",
                    "-o", "Dir::Etc::TrustedParts=\(d)/trusted.gpg.d", "-o", "Dir::Etc::Trusted=\(d)/trusted.gpg",
                    "-o", "Dir::Etc::PreferencesParts=\(d)/preferences.d", "-o", "Debug::NoLocking=1",
                ] + arguments)
        }

        /// The version apt would install (`(none)` when it has none).
        func candidate() throws -> String {
            let policy = try run("apt-cache", ["policy", "delaybox"]).output
            return policy.split(separator: "\n").first { $0.contains("Candidate:") }?.split(separator: " ").last.map(
                String.init) ?? "(none)"
        }
    }

    /// A repository of `packages` signed with `key`, its passphrase (if any) on stdin.
    static func makeRepository(
        key: URL, url: String, out: URL, passphrase: String? = nil, packages: [URL] = packages
    ) throws -> ExternalTool.Outcome {
        try ExternalTool.execute(
            root.appendingPathComponent("deploy/make-repo.sh"),
            ["--key", key.path, "--url", url, "--out", out.path] + packages.map(\.path),
            input: passphrase.map { $0 + "\n" })
    }

    /// A signing key with a passphrase (as a club's should have) is unlocked once, from
    /// standard input here (the terminal for a person); a wrong one is said and nothing is
    /// signed (issue 57). Packages are not needed to see it: the next refusal is theirs.
    @Test func aKeyWithAPassphraseIsUnlockedOnce() throws {
        let directory = try ExternalTool.temporaryDirectory("repo-passphrase")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = try Self.throwawayKey("Locked", in: directory, passphrase: "club secret 42")
        let out = directory.appendingPathComponent("repo")
        let notPackage = [directory.appendingPathComponent("x.deb")]
        let wrong = try Self.makeRepository(
            key: key, url: "https://club.example/r", out: out, passphrase: "guess", packages: notPackage)
        #expect(wrong.status == 2 && wrong.errors.contains("the passphrase does not unlock"), "\(wrong.errors)")
        let none = try Self.makeRepository(key: key, url: "https://club.example/r", out: out, packages: notPackage)
        #expect(none.status == 2 && none.errors.contains("has a passphrase: give it"), "\(none.errors)")
        let right = try Self.makeRepository(
            key: key, url: "https://club.example/r", out: out, passphrase: "club secret 42", packages: notPackage)
        #expect(right.status == 2 && right.errors.contains("not a package for Debian 12 or 13"), "\(right.errors)")
    }

    /// deploy/check-sources.sh, which install.sh --from-repo runs on the entry the board
    /// fetched: make-repo.sh's entry passes, with its key's fingerprint too; every change an
    /// attacker on the path would make is refused, each with its reason (issue 56).
    @Test func aRepositoryEntryIsTakenOnlyAsMakeRepoWritesIt() throws {
        let directory = try ExternalTool.temporaryDirectory("check-sources")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = "https://club.example/delaybox"
        func entry(_ key: URL) throws -> String {
            try ExternalTool.run([
                Self.root.appendingPathComponent("deploy/make-repo.sh").path, "--sources", "trixie", "--key", key.path,
                "--url", url,
            ])
        }
        /// Read from the key's own keyring: `gpg --show-keys` of a secret key file starts an
        /// agent in root's ~/.gnupg that outlives the suite (CI of stop 61 failed on it).
        func fingerprint(_ name: String) throws -> String {
            let home = directory.appendingPathComponent("gnupg-\(name)").path
            let listed = try ExternalTool.run([
                "env", "GNUPGHOME=\(home)", "gpg", "--batch", "--with-colons", "--list-keys",
            ])
            let line = try #require(listed.split(separator: "\n").first { $0.hasPrefix("fpr:") })
            return String(line.split(separator: ":", omittingEmptySubsequences: false)[9])
        }
        let club = try Self.throwawayKey("Club", in: directory)
        let mallory = try Self.throwawayKey("Mallory", in: directory)
        let good = try entry(club), forged = try entry(mallory)
        let clubPrint = try fingerprint("Club")
        func check(_ text: String, fingerprint: String = "") throws -> ExternalTool.Outcome {
            let file = directory.appendingPathComponent("trixie.sources")
            try text.write(to: file, atomically: true, encoding: .utf8)
            return try ExternalTool.execute(
                Self.root.appendingPathComponent("deploy/check-sources.sh"), [file.path, url, "trixie", fingerprint])
        }
        let passed = try check(good)
        #expect(passed.status == 0, "\(passed.errors)")
        let spaced = stride(from: 0, to: 40, by: 4).map { i in
            clubPrint.dropFirst(i).prefix(4).lowercased()
        }.joined(separator: " ")
        #expect(try check(good, fingerprint: spaced).status == 0, "the fingerprint as a club prints it: \(spaced)")
        let keyBlock = forged[forged.range(of: "Signed-By:")!.upperBound...]
        let refusals: [(String, String, String)] = [
            ("another key", forged, "not the fingerprint given"),
            ("Trusted", good + "Trusted: yes\n", "'Trusted' is not taken"),
            ("a second repository", good + "\nTypes: deb\nURIs: http://evil.example/\n", "more than one"),
            ("another address", good.replacingOccurrences(of: url, with: "http://evil.example/x"), "URIs is"),
            ("another suite", good.replacingOccurrences(of: "Suites: trixie", with: "Suites: sid"), "Suites is"),
            (
                "a keyring path",
                "Types: deb\nURIs: \(url)\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n",
                "inline"
            ),
            ("two key blocks", good.trimmingCharacters(in: .newlines) + keyBlock, "more than one key block"),
            ("Types deb-src", good.replacingOccurrences(of: "Types: deb", with: "Types: deb deb-src"), "Types is"),
            ("a field twice", good + "URIs: \(url)\n", "written twice"),
            ("nothing", "# empty\n", "no repository"),
        ]
        for (what, text, reason) in refusals {
            let refused = try check(text, fingerprint: clubPrint)
            #expect(refused.status == 1 && refused.errors.contains(reason), "\(what): \(refused.errors)")
        }
    }

    @Test(
        .enabled(if: packages.count >= 2, "needs the Debian 12 and 13 packages make test builds (deploy/make-deb.sh)"))
    func aRepositoryIsVerifiedByAptAndOneBadlySignedOffersNothing() throws {
        let directory = try ExternalTool.temporaryDirectory("release-repo")
        defer { try? FileManager.default.removeItem(at: directory) }
        let repo = directory.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repo, withIntermediateDirectories: true)
        let server = try StaticHTTPServer(directory: repo)
        let url = server.url("")
        // The club's key has a passphrase, given once: every suite signed with it.
        let key = try Self.throwawayKey("Club", in: directory, passphrase: "club secret 42")
        let made = try Self.makeRepository(key: key, url: url, out: repo, passphrase: "club secret 42")
        #expect(made.status == 0, "\(made.errors)")
        for file in [
            "dists/bookworm/InRelease", "dists/bookworm/Release.gpg", "dists/trixie/InRelease",
            "dists/trixie/main/binary-amd64/Packages", "dists/trixie/main/binary-arm64/Packages",
            "delaybox-archive-keyring.gpg", "KEY-FINGERPRINT.txt", "bookworm.sources", "trixie.sources",
        ] {
            #expect(FileManager.default.fileExists(atPath: repo.appendingPathComponent(file).path), "\(file)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: repo.appendingPathComponent("db").path),
            "reprepro's state is not published")

        for package in Self.packages where package.lastPathComponent.hasSuffix("_arm64.deb") {
            // (apt here is amd64's: the Pi's package is looked for in its index.)
            let version = try ExternalTool.run(["dpkg-deb", "-f", package.path, "Version"]).trimmingCharacters(
                in: .whitespacesAndNewlines)
            let index = try String(
                contentsOf: repo.appendingPathComponent("dists/trixie/main/binary-arm64/Packages"), encoding: .utf8)
            #expect(index.contains("Package: delaybox\n") && index.contains("Version: \(version)\n"), "\(index)")
        }
        for package in Self.packages where !package.lastPathComponent.hasSuffix("_arm64.deb") {
            let version = try ExternalTool.run(["dpkg-deb", "-f", package.path, "Version"]).trimmingCharacters(
                in: .whitespacesAndNewlines)
            let suite = try #require(Self.suites[version.hasSuffix("~deb12") ? 12 : 13])
            let apt = try Apt(
                in: directory, name: suite,
                sources: String(contentsOf: repo.appendingPathComponent("\(suite).sources"), encoding: .utf8))
            let update = try apt.run("apt-get", ["-q", "update"])
            #expect(
                update.status == 0 && !update.output.contains("W:") && !update.errors.contains("GPG error"),
                "\(update.output)\(update.errors)")
            #expect(try apt.candidate() == version, "\(suite) offers \(version)")
            let download = try apt.run("apt-get", ["-q", "download", "delaybox"])
            let fetched =
                (try? FileManager.default.contentsOfDirectory(atPath: apt.directory.path))?.contains {
                    $0.hasPrefix("delaybox_")
                } ?? false
            #expect(
                fetched,
                "downloaded, its hash checked against the signed index: \(download.output.suffix(600))\(download.errors.suffix(600))"
            )
        }

        // The signed index changed after signing: apt refuses it, and a box that never read
        // the repository has nothing to install.
        let inRelease = repo.appendingPathComponent("dists/trixie/InRelease")
        try String(contentsOf: inRelease, encoding: .utf8).replacingOccurrences(
            of: "Label: Delaybox", with: "Label: Delayb0x"
        )
        .write(to: inRelease, atomically: true, encoding: .utf8)
        let tampered = try Apt(
            in: directory, name: "tampered",
            sources: String(contentsOf: repo.appendingPathComponent("trixie.sources"), encoding: .utf8))
        let refused = try tampered.run("apt-get", ["-q", "update"])
        #expect((refused.output + refused.errors).contains("BADSIG"), "\(refused.output)\(refused.errors)")
        #expect(try tampered.candidate() == "(none)")

        // Another key signed it (a repository not the club's): the source's key refuses it.
        let other = directory.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let otherServer = try StaticHTTPServer(directory: other)
        #expect(
            try Self.makeRepository(
                key: try Self.throwawayKey("Stranger", in: directory), url: otherServer.url(""), out: other
            ).status == 0)
        let clubSources = try String(contentsOf: repo.appendingPathComponent("bookworm.sources"), encoding: .utf8)
            .replacingOccurrences(of: url, with: otherServer.url(""))
        let stranger = try Apt(in: directory, name: "stranger", sources: clubSources)
        let strangerUpdate = try stranger.run("apt-get", ["-q", "update"])
        #expect(
            (strangerUpdate.output + strangerUpdate.errors).contains("NO_PUBKEY"),
            "\(strangerUpdate.output)\(strangerUpdate.errors)")
        #expect(try stranger.candidate() == "(none)")
    }

    /// Built with RELEASE_URL, the package carries its repository's source: the same file
    /// the repository publishes for its suite, as a conffile (the owner's copy and the
    /// package's agree, so dpkg does not ask).
    @Test(
        .enabled(
            if: VirtualBoard.Board(release: VirtualBoard.hostRelease).package != nil,
            "needs the package make test builds"))
    func aReleasePackageFollowsItsRepository() throws {
        let package = try #require(VirtualBoard.Board(release: VirtualBoard.hostRelease).package)
        let directory = try ExternalTool.temporaryDirectory("release-package")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tree = directory.appendingPathComponent("tree")
        try ExternalTool.run(["dpkg-deb", "-x", package.path, tree.path])
        let key = try Self.throwawayKey("Club", in: directory)
        let url = "https://club.example/delaybox/"
        let suite = try #require(Self.suites[VirtualBoard.hostRelease])
        let built = try ExternalTool.execute(
            Self.root.appendingPathComponent("deploy/make-deb.sh"),
            [
                "--debian", String(VirtualBoard.hostRelease), "--bin", tree.appendingPathComponent("usr/bin").path,
                "--out", directory.appendingPathComponent("deb").path,
            ],
            environment: ["RELEASE_URL": url, "RELEASE_KEY": key.path])
        #expect(built.status == 0, "\(built.errors)")
        let deb = built.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            try ExternalTool.run(["dpkg-deb", "-I", deb, "conffiles"]).contains(
                "/etc/apt/sources.list.d/delaybox.sources"))
        let unpacked = directory.appendingPathComponent("unpacked")
        try ExternalTool.run(["dpkg-deb", "-x", deb, unpacked.path])
        let source = try String(
            contentsOf: unpacked.appendingPathComponent("etc/apt/sources.list.d/delaybox.sources"), encoding: .utf8)
        let published = try ExternalTool.run([
            Self.root.appendingPathComponent("deploy/make-repo.sh").path, "--sources", suite, "--key", key.path,
            "--url", url,
        ])
        #expect(source == published)
        #expect(
            source.contains(
                "URIs: \(url)\nSuites: \(suite)\nComponents: main\nSigned-By:\n -----BEGIN PGP PUBLIC KEY BLOCK-----"),
            "\(source)")
    }
}
