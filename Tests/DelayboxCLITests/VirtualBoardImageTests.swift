import DelayboxTestSupport
import Foundation
import Testing

/// Issue 68's acceptance, on the card `make image` made: written as a flasher would (a
/// fresh copy of the image on a 4 GB card; Imager's customisation files on its boot partition
/// in one run, none in the other) and powered on on the arm64 emulated board as a Pi's
/// firmware starts it — the kernel, initramfs and command line from the card's own boot
/// partition (tools/image/boot.sh), a sound card's line out written to a file. Nobody logs
/// in. `make image-test` runs it (not `make test`: the image takes ~40 minutes to build);
/// DELAYBOX_IMAGE names another card. The figures it prints are docs/image.md's.
@Suite(.serialized, .timeLimit(.minutes(40))) struct VirtualBoardImageTests {
    static let root = CommandLineTests.root
    /// The club's station (a live tone on Icecast, Hz): nothing else the box plays is at it.
    static let clubHertz = 1_234.0

    /// The card under test: DELAYBOX_IMAGE, else the one `make image` left in out/image.
    static func image() throws -> URL {
        if let path = ProcessInfo.processInfo.environment["DELAYBOX_IMAGE"] { return URL(fileURLWithPath: path) }
        let directory = root.appendingPathComponent("out/image")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let name = try #require(names.filter { $0.hasSuffix("-arm64.img.xz") }.sorted().last, "no card: make image")
        return directory.appendingPathComponent(name)
    }

    /// The card's boot partition, as mtools names it (the image at the partition's offset).
    static func bootPartition(of card: URL) throws -> String {
        let table = try ExternalTool.run(["sfdisk", "-J", card.path])
        let json = try JSONSerialization.jsonObject(with: Data(table.utf8)) as? [String: Any]
        let partitions = (json?["partitiontable"] as? [String: Any])?["partitions"] as? [[String: Any]]
        let start = try #require(partitions?.first?["start"] as? Int, "no partitions on the card: \(table)")
        return "\(card.path)@@\(start * 512)"
    }

    /// The two forms of Imager's customisation: its firstrun.sh (os_list `init_format:
    /// systemd`, Imager 1.8 and 2) and cloud-init's files (Imager 2's `cloudinit-rpi`).
    enum Form: String, CaseIterable, Sendable {
        case firstrun, cloudInit
    }

    /// A card as a flasher writes it: the image on a fresh 4 GB card, and, when given, Imager's
    /// customisation on its boot partition — firstrun.sh and cmdline.txt asking for it, or
    /// user-data and network-config.
    static func flash(to card: URL, customisation: ImagerFirstRun?, form: Form = .firstrun) throws {
        try ExternalTool.run([
            "sh", "-c", #"xz -dc "$0" > "$1" && truncate -s 4G "$1""#, try image().path, card.path,
        ])
        guard let customisation else { return }
        let boot = try bootPartition(of: card)
        let cmdline = try ExternalTool.run(["mtype", "-i", boot, "::/cmdline.txt"])
        let directory = card.deletingLastPathComponent()
        let files =
            switch form {
            case .firstrun:
                [("firstrun.sh", customisation.script), ("cmdline.txt", customisation.commandLine(after: cmdline))]
            case .cloudInit:
                [("user-data", customisation.userData), ("network-config", customisation.networkConfig ?? "")]
            }
        for (name, text) in files {
            let file = directory.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            try ExternalTool.run(["mcopy", "-o", "-i", boot, file.path, "::/\(name)"])
        }
    }

    /// The board on: its machine, where its console and codec go, its forwarded ports.
    struct PoweredBoard {
        var machine: LaunchedProgram
        var directory: URL
        var sshPort: Int
        var webPort: Int
        /// Where this machine reaches the board's MQTT broker (a venue's hub serves one).
        var brokerPort: Int
        var poweredOn = Date()

        init(card: URL, in directory: URL, station: Int) throws {
            (self.directory, sshPort, webPort) = (directory, try LoopbackPort.unused(), try LoopbackPort.unused())
            brokerPort = try LoopbackPort.unused()
            machine = try LaunchedProgram(
                VirtualBoardImageTests.root.appendingPathComponent("tools/image/boot.sh"),
                [card.path, directory.path, String(sshPort), String(webPort), String(station)],
                environment: ["FORWARDS": "tcp:127.0.0.1:\(brokerPort)-:1883"],
                errors: .file(directory.appendingPathComponent("boot.log")))
        }

        /// Seconds since power-on.
        var elapsed: Int { Int(Date().timeIntervalSince(poweredOn)) }

        /// Every power-on's console so far, in order.
        var console: String {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
                .filter { $0.hasPrefix("console-") }.sorted()
            let earlier = names.compactMap {
                try? String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8)
            }
            let now = (try? String(contentsOf: directory.appendingPathComponent("console.log"), encoding: .utf8)) ?? ""
            return (earlier + [now]).joined(separator: "\n")
        }

        /// A page request from this machine, or nil while the box does not answer.
        func get(_ path: String) -> String? {
            guard
                let outcome = try? ExternalTool.execute(
                    URL(fileURLWithPath: "/usr/bin/curl"),
                    ["-sf", "--max-time", "15", "http://127.0.0.1:\(webPort)\(path)"]), outcome.status == 0
            else { return nil }
            return outcome.output
        }

        /// The status the page shows, as JSON.
        func status() throws -> [String: Any] {
            let text = try #require(get("/api/status"), "the page's status")
            let json = try JSONSerialization.jsonObject(with: Data(text.utf8))
            return try #require(json as? [String: Any], "\(text)")
        }

        /// Waits until the page answers; the seconds since power-on.
        func waitForPage(seconds: Int) throws -> Int {
            guard Eventually.holds(within: Double(seconds), every: 3, { get("/api/session") != nil }) else {
                throw ExternalTool.Failed(
                    description: "no page within \(seconds) s of power-on; the console:\n\(console.suffix(4000))")
            }
            return elapsed
        }

        /// The codec's last `seconds` of output as written so far, stereo interleaved.
        func heard(lastSeconds seconds: Int) throws -> [Int16] {
            let path = directory.appendingPathComponent("codec.wav").path
            return Array(try WavCapture.stereoSamples(path: path).suffix(seconds * 2 * WavCapture.sampleRate))
        }

        /// Waits until the codec plays something not silent for 2 s; the seconds since power-on.
        func waitForSound(seconds: Int) throws -> Int {
            let playing = Eventually.holds(within: Double(seconds), every: 2) {
                let samples = (try? heard(lastSeconds: 2)) ?? []
                return samples.count == 4 * WavCapture.sampleRate && Self.rms(samples) > 300
            }
            guard playing else {
                throw ExternalTool.Failed(
                    description: "the codec stayed silent \(seconds) s; the console:\n\(console.suffix(4000))")
            }
            return elapsed
        }

        static func rms(_ samples: [Int16]) -> Double {
            (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))).squareRoot()
        }
    }

    /// A card nobody customised: the first power-on grows the root, names the box and plays
    /// its demo channel at the codec; the page answers, by the name it announces; SSH is off;
    /// a phone chooses the password and pastes the club's station, which the codec then plays.
    @Test func aCardNobodyCustomisedPlaysAndAPhoneSetsItUp() throws {
        let python = Self.root.appendingPathComponent(".build/browser-venv/bin/python")
        try #require(FileManager.default.isExecutableFile(atPath: python.path), "no Playwright: deploy/setup-host.sh")
        let directory = try ExternalTool.temporaryDirectory("image-plain")
        defer { try? FileManager.default.removeItem(at: directory) }
        let icecast = try IcecastServer()
        defer { icecast.stop() }
        try icecast.startSource(mount: "/club", frequency: Int(Self.clubHertz))
        let card = directory.appendingPathComponent("card.img")
        try Self.flash(to: card, customisation: nil)
        let board = try PoweredBoard(card: card, in: directory, station: icecast.port)
        defer { board.machine.kill() }

        let page = try board.waitForPage(seconds: 900)
        let sound = try board.waitForSound(seconds: 300)
        print("image: first power-on to the page \(page) s, to the demo heard at the codec \(sound) s")
        let console = board.console
        #expect(console.contains("delaybox-firstboot: root grown to 3."), "\(console.suffix(3000))")
        let named = try #require(
            console.firstMatch(of: /delaybox-firstboot: named (delaybox-[0-9a-f]{4})/).map { String($0.1) },
            "\(console.suffix(3000))")
        // The first sound may be its address said aloud while the demo's delay still builds
        // (`buffering`): the demo plays once it is built.
        let status = try #require(
            Eventually.value(within: 120, every: 2) {
                (try? board.status()).flatMap { $0["state"] as? String == "playing" ? $0 : nil }
            }, "the demo channel playing: \((try? board.status()) ?? [:])")
        #expect(status["page"] as? String == "http://\(named).local/", "\(status)")
        #expect(status["channel"] as? String != nil, "\(status)")

        // SSH is off: nothing answers on its port (a refusal, not a password asked for).
        let ssh = try ExternalTool.execute(
            URL(fileURLWithPath: "/usr/bin/ssh"),
            [
                "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-p", String(board.sshPort), "pi@127.0.0.1", "true",
            ])
        #expect(ssh.status == 255 && !ssh.errors.contains("Permission denied"), "\(ssh.errors)")

        let screenshots = Self.root.appendingPathComponent("out/image-test")
        try FileManager.default.createDirectory(at: screenshots, withIntermediateDirectories: true)
        let phone = try ExternalTool.execute(
            python,
            [
                Self.root.appendingPathComponent("tools/browser/first_boot.py").path,
                "--url", "http://127.0.0.1:\(board.webPort)", "--station", "http://10.0.2.100:8000/club",
                "--out", screenshots.path, "--hub", "pub", "--add", "screen2",
            ])
        #expect(phone.status == 0, "\(phone.output)\n\(phone.errors)\nthe console:\n\(board.console.suffix(3000))")
        print(phone.output)
        // The club's tone at the codec: its bin far above a bin where nothing plays.
        let tone = Eventually.holds(within: 120, every: 2) {
            let samples = (try? board.heard(lastSeconds: 1)) ?? []
            let frames = WavCapture.sampleRate
            return samples.count == 2 * frames
                && Goertzel.power(samples, from: 0, frames: frames, hertz: Self.clubHertz)
                    > 100 * Goertzel.power(samples, from: 0, frames: frames, hertz: 700)
        }
        #expect(tone, "the club's station at the codec")
        print("image: the club's station heard at the codec \(board.elapsed) s after power-on")

        // The venue's hub the page made: the card's own mosquitto lets in the box it added (with
        // the code's password, nothing else). (Its time server is asked from the board itself:
        // QEMU's user network forwards no NTP reply from it to this machine.)
        let code = try #require(
            phone.output.firstMatch(of: /join code: (delaybox-venue:\S+)/).map { String($0.1) }, "\(phone.output)")
        let password = try #require(code.split(separator: "/").last.map(String.init))
        #expect(code.contains("/pub/screen2/"), "\(code)")
        #expect(RootVenueHelper.logsIn("screen2", password, port: board.brokerPort), "the hub's broker")
        #expect(!RootVenueHelper.logsIn("screen2", password + "x", port: board.brokerPort))
    }

    /// Imager's customisation, in either form, on the first boot: the name, the user with its
    /// SSH key (logins by key only) and its password (none for cloud-init's run: Imager's
    /// "keys only", and sudo asks none), the Wi-Fi and the time zone are the ones given;
    /// the files are gone from the card with their secrets, and the card boots on as itself.
    @Test(arguments: Form.allCases) func imagersCustomisationGivesTheNameTheKeyAndTheWiFi(form: Form) throws {
        let directory = try ExternalTool.temporaryDirectory("image-custom")
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("id_ed25519")
        try ExternalTool.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "owner@club", "-f", key.path])
        let password = "club house speakers"
        let hash = try ExternalTool.run(["openssl", "passwd", "-5", password]).trimmingCharacters(
            in: .whitespacesAndNewlines)
        let psk = String(repeating: "3ed28710b41086b4", count: 4)  // Imager passes the key it derived
        let customisation = ImagerFirstRun(
            hostname: "clubhouse-bar", user: "club", passwordHash: form == .firstrun ? hash : "",
            sshKeys: [
                try String(contentsOf: key.appendingPathExtension("pub"), encoding: .utf8)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            ],
            wifi: (ssid: "Club House", psk: psk, country: "GB"), timezone: "Europe/London", keymap: "gb")
        let card = directory.appendingPathComponent("card.img")
        try Self.flash(to: card, customisation: customisation, form: form)
        let board = try PoweredBoard(card: card, in: directory, station: try LoopbackPort.unused())
        let login = VirtualBoardDeployTests.Login(
            port: board.sshPort, key: key.path, knownHosts: directory.appendingPathComponent("known_hosts").path,
            connection: directory.appendingPathComponent("ssh").path, user: "club")
        defer {
            login.close()
            board.machine.kill()
        }
        try login.waitForSSH(seconds: 1_200, console: directory.appendingPathComponent("console.log"))
        print("image: customised (\(form.rawValue)), first power-on to SSH by the owner's key \(board.elapsed) s")

        let who = try login.run("hostname; cat /etc/timezone; id -nG").split(separator: "\n").map(String.init)
        #expect(who.prefix(2) == ["clubhouse-bar", "Europe/London"], "\(who)")
        let groups = who.last?.split(separator: " ").map(String.init) ?? []
        #expect(groups.first == "club" && groups.contains("sudo") && groups.contains("audio"), "\(who)")
        let asRoot = form == .firstrun ? "echo '\(password)' | sudo -S -p '' sh -c " : "sudo -n sh -c "
        let wifi = try login.run(asRoot + "'cat /etc/NetworkManager/system-connections/*.nmconnection'")
        // (A keyfile names the network by its bytes, as NetworkManager writes any SSID.)
        let ssid = "Club House".utf8.map { "\($0);" }.joined()
        #expect(wifi.contains("ssid=\(ssid)\n") && wifi.contains("psk=\(psk)"), "\(wifi)")
        let boot = try login.run(asRoot + "'cat /boot/firmware/cmdline.txt; ls /boot/firmware'")
        #expect(!boot.contains("systemd.run") && !boot.contains("firstrun.sh"), "\(boot)")
        #expect(!boot.contains("user-data") && !boot.contains("network-config"), "\(boot)")
        let sshd = try login.run(asRoot + "'sshd -T | grep -i ^passwordauthentication'")
        #expect(sshd == "passwordauthentication no", "keys only: \(sshd)")
        #expect(try board.status()["page"] as? String == "http://clubhouse-bar.local/")
        let said = form == .firstrun ? "Imager's customisation runs next" : "imager: set host name clubhouse-bar"
        #expect(board.console.contains(said))

        // The card's chrony, made the venue's time server by its console's `venue hub`, answers
        // a client on the LAN (its own address: QEMU's user network forwards no NTP reply).
        let hub = try login.run(asRoot + "'delayboxctl venue hub pub'")
        #expect(hub.contains("this box is the hub of venue 'pub'"), "\(hub)")
        let asked = try login.run(
            asRoot + "'chronyd -Q -t 20 \"server $(hostname -I | cut -d\" \" -f1) iburst\" 2>&1'")
        #expect(asked.contains("System clock wrong by"), "the hub's time server: \(asked)")
    }
}
