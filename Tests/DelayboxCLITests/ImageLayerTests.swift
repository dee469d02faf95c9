import DelayboxTestSupport
import Foundation
import Testing

/// Issue 68, the card a club flashes: the parts of `make image` that run on this machine,
/// on small partitions of their own (the whole image's packages are configured on an
/// emulated board: ~40 minutes, docs/image.md) — the card put together as a Pi's firmware
/// reads it, what a club publishes for Raspberry Pi Imager, the layer on a root file
/// system, and the Wi-Fi Imager's customisation saves.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ImageLayerTests {
    static let root = CommandLineTests.root
    static func tool(_ name: String) -> String { root.appendingPathComponent("tools/image/\(name)").path }

    /// The card: an MBR with the FAT boot partition at 1 MiB (type c, bootable) and the ext4
    /// root after it, each found by its label; the list Imager reads names the compressed
    /// image with its sizes and SHA-256s, as the file it serves.
    @Test func theCardIsPutTogetherAndPublishedForImager() throws {
        let directory = try ExternalTool.temporaryDirectory("image")
        defer { try? FileManager.default.removeItem(at: directory) }
        let boot = directory.appendingPathComponent("boot.vfat").path
        let rootfs = directory.appendingPathComponent("root.ext4").path
        try ExternalTool.run(["mkfs.vfat", "-F", "32", "-n", "RASPIFIRM", "-C", boot, String(40 * 1024)])
        try "arm_64bit=1\n".write(
            toFile: directory.appendingPathComponent("config.txt").path, atomically: true, encoding: .utf8)
        try ExternalTool.run([
            "mcopy", "-i", boot, directory.appendingPathComponent("config.txt").path, "::/config.txt",
        ])
        try ExternalTool.run(["mkfs.ext4", "-q", "-F", "-L", "RASPIROOT", rootfs, "24M"])
        let image = directory.appendingPathComponent("delaybox-9.9-arm64.img").path
        try ExternalTool.run([Self.tool("assemble.sh"), image, boot, rootfs])

        let table = try JSONSerialization.jsonObject(with: Data(ExternalTool.run(["sfdisk", "-J", image]).utf8))
        let partitionTable = try #require((table as? [String: Any])?["partitiontable"] as? [String: Any])
        #expect(partitionTable["label"] as? String == "dos")
        let partitions = try #require(partitionTable["partitions"] as? [[String: Any]])
        #expect(partitions.count == 2)
        #expect(partitions.first?["start"] as? Int == 2048 && partitions.first?["type"] as? String == "c")
        #expect(partitions.first?["bootable"] as? Bool == true)
        #expect(partitions.last?["start"] as? Int == 2048 + 40 * 2048 && partitions.last?["type"] as? String == "83")
        // The boot partition as the firmware reads it, in place; the root by its label.
        let config = try ExternalTool.run(["mtype", "-i", image + "@@1M", "::/config.txt"])
        #expect(config == "arm_64bit=1\n")
        let label = try ExternalTool.run([
            "blkid", "-p", "-O", String((1 + 40) * 1_048_576), "-s", "LABEL", "-o", "value", image,
        ])
        #expect(label.trimmingCharacters(in: .whitespacesAndNewlines) == "RASPIROOT")

        let written = try Data(contentsOf: URL(fileURLWithPath: image))
        let out = directory.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let published = try ExternalTool.execute(
            URL(fileURLWithPath: Self.tool("publish.sh")), [image, out.path],
            environment: ["IMAGE_URL": "https://club.example/delaybox/delaybox-9.9-arm64.img.xz"])
        #expect(published.status == 0, "\(published.errors)")
        let xz = out.appendingPathComponent("delaybox-9.9-arm64.img.xz")
        let list = try JSONSerialization.jsonObject(
            with: Data(contentsOf: out.appendingPathComponent("rpi-imager.json")))
        let entry = try #require(((list as? [String: Any])?["os_list"] as? [[String: Any]])?.first)
        #expect(entry["url"] as? String == "https://club.example/delaybox/delaybox-9.9-arm64.img.xz")
        #expect(entry["extract_size"] as? Int == written.count)
        #expect(entry["extract_sha256"] as? String == Self.sha256(image: written, in: directory))
        let downloaded = try Data(contentsOf: xz)
        #expect(entry["image_download_size"] as? Int == downloaded.count)
        let sums = try String(
            contentsOf: out.appendingPathComponent("delaybox-9.9-arm64.img.xz.sha256"), encoding: .utf8)
        #expect(sums.hasPrefix((entry["image_download_sha256"] as? String ?? "?") + "  delaybox-9.9-arm64.img.xz"))
        #expect(entry["init_format"] as? String == "systemd")
        #expect((entry["devices"] as? [String])?.contains("pi4-64bit") == true)
        // What the card receives is the image that was measured.
        let unpacked = try ExternalTool.run(["sh", "-c", "xz -dc '\(xz.path)' | sha256sum | cut -d' ' -f1"])
        #expect(unpacked.trimmingCharacters(in: .whitespacesAndNewlines) == entry["extract_sha256"] as? String)
    }

    static func sha256(image: Data, in directory: URL) -> String {
        let file = directory.appendingPathComponent("copy")
        try? image.write(to: file)
        return (try? ExternalTool.run(["sha256sum", file.path]))?.split(separator: " ").first.map(String.init) ?? ""
    }

    /// The layer on a Debian base: the first-boot service and script, Imager's helper, the
    /// root and boot partitions by label, Debian's sources with non-free-firmware, the boot
    /// firmware's lines; on a Raspberry Pi OS base its own Imager helper is kept.
    @Test func theLayerGoesOntoARootFileSystem() throws {
        let fs = try ExternalTool.temporaryDirectory("layer")
        defer { try? FileManager.default.removeItem(at: fs) }
        try FileManager.default.createDirectory(
            at: fs.appendingPathComponent("etc/apt/sources.list.d"), withIntermediateDirectories: true)
        try ExternalTool.run([Self.tool("layer.sh"), fs.path, "debian"])
        func text(_ path: String) -> String {
            (try? String(contentsOf: fs.appendingPathComponent(path), encoding: .utf8)) ?? ""
        }
        #expect(text("etc/fstab").contains("LABEL=RASPIROOT / ext4"))
        #expect(text("etc/fstab").contains("LABEL=RASPIFIRM /boot/firmware vfat"))
        #expect(text("etc/apt/sources.list.d/debian.sources").contains("Components: main non-free-firmware"))
        #expect(text("etc/hostname") == "delaybox\n")
        #expect(text("etc/dpkg/dpkg.cfg.d/delaybox-image-excludes").contains("path-exclude=/usr/share/doc/*"))
        #expect(
            text("etc/systemd/system/delaybox-firstboot.service").contains(
                "ConditionPathExists=!/var/lib/delaybox-firstboot/done"))
        for program in [
            "usr/lib/delaybox-image/delaybox-firstboot", "usr/lib/delaybox-image/configure",
            "usr/lib/delaybox-image/imager_custom", "usr/lib/delaybox-image/userconf",
        ] {
            #expect(FileManager.default.isExecutableFile(atPath: fs.appendingPathComponent(program).path), "\(program)")
        }
        // A Raspberry Pi OS base keeps its own helper (raspberrypi-sys-mods'): the layer puts
        // ours beside it, and the configure step in its place only over nothing or ours.
        #expect(
            try String(contentsOfFile: Self.root.appendingPathComponent("deploy/image/configure").path, encoding: .utf8)
                .contains("grep -q '^# delaybox-image helper\\|issue 68' \"$2\""))
        let raspios = try ExternalTool.temporaryDirectory("layer-raspios")
        defer { try? FileManager.default.removeItem(at: raspios) }
        let own = raspios.appendingPathComponent("usr/lib/raspberrypi-sys-mods/imager_custom")
        try FileManager.default.createDirectory(at: own.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "#!/bin/sh\n# raspberrypi-sys-mods\n".write(to: own, atomically: true, encoding: .utf8)
        try ExternalTool.run([Self.tool("layer.sh"), raspios.path, "raspios"])
        #expect((try? String(contentsOf: own, encoding: .utf8))?.contains("raspberrypi-sys-mods") == true)
        #expect(!FileManager.default.fileExists(atPath: raspios.appendingPathComponent("etc/fstab").path))
        let wrong = try ExternalTool.execute(URL(fileURLWithPath: Self.tool("layer.sh")), [raspios.path, "ubuntu"])
        #expect(wrong.status == 2 && wrong.errors.contains("debian or raspios"))
    }

    /// `make image BASE=…` refuses what is not a card of Raspberry Pi OS's shape before it
    /// fetches or boots anything: no partition table; a first partition without config.txt.
    @Test func aBaseThatIsNoPiCardIsRefusedFirst() throws {
        let directory = try ExternalTool.temporaryDirectory("onto-base")
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("pkg")
        try FileManager.default.createDirectory(
            at: package.appendingPathComponent("DEBIAN"), withIntermediateDirectories: true)
        try "Package: delaybox\nVersion: 9.9\nArchitecture: arm64\nMaintainer: t <t@t>\nDescription: t\n".write(
            to: package.appendingPathComponent("DEBIAN/control"), atomically: true, encoding: .utf8)
        let deb = directory.appendingPathComponent("delaybox.deb").path
        try ExternalTool.run(["dpkg-deb", "--build", "--root-owner-group", package.path, deb])
        let blank = directory.appendingPathComponent("blank.img").path
        try ExternalTool.run(["truncate", "-s", "64M", blank])
        let out = directory.appendingPathComponent("out").path
        let tool = URL(fileURLWithPath: Self.tool("onto-base.sh"))
        let none = try ExternalTool.execute(tool, [deb, blank, out])
        #expect(none.status == 2 && none.errors.contains("no partition table with a boot and a root"), "\(none.errors)")
        // Two partitions, the first FAT but without the Pi's firmware settings.
        try ExternalTool.run([
            "sh", "-c",
            "printf 'label: dos\\nstart=1MiB, size=20MiB, type=c\\nstart=21MiB, type=83\\n' | sfdisk -q \"$0\"", blank,
        ])
        try ExternalTool.run(["mkfs.vfat", "-F", "32", "--offset", "2048", blank, String(20 * 1024)])
        let noFirmware = try ExternalTool.execute(tool, [deb, blank, out])
        #expect(
            noFirmware.status == 2 && noFirmware.errors.contains("no config.txt: not a Raspberry Pi card"),
            "\(noFirmware.errors)")
    }

    /// What Imager's customisation passes is checked before anything changes: a host name
    /// is one DNS label (it goes into /etc/hosts and is announced as NAME.local), a user
    /// name a login's, a password a crypt(3) hash, a time zone a file under zoneinfo, a
    /// keyboard layout XKB's word (the file it goes into is sourced by shell scripts).
    /// (Refusals only: the accepted ones change this machine, and are walked on the image
    /// booted — VirtualBoardImageTests.)
    @Test func imagersCustomisationIsCheckedBeforeAnythingChanges() throws {
        let custom = URL(fileURLWithPath: Self.root.appendingPathComponent("deploy/image/imager_custom").path)
        let userconf = URL(fileURLWithPath: Self.root.appendingPathComponent("deploy/image/userconf").path)
        let hostname = try String(contentsOfFile: "/etc/hostname", encoding: .utf8)
        for name in [
            "", "-club", "club-", "club_bar", "a;reboot", "club.local", "club\nevil", String(repeating: "a", count: 64),
        ] {
            let refused = try ExternalTool.execute(custom, ["set_hostname", name])
            #expect(refused.status == 1 && refused.errors.contains("is not a host name"), "\(name): \(refused.errors)")
        }
        #expect(try String(contentsOfFile: "/etc/hostname", encoding: .utf8) == hostname)
        let keyboard = try? String(contentsOfFile: "/etc/default/keyboard", encoding: .utf8)
        for layout in ["", "gb\"; reboot; \"", "gb\nXKBOPTIONS=x", "$(reboot)", String(repeating: "a", count: 65)] {
            let refused = try ExternalTool.execute(custom, ["set_keymap", layout])
            #expect(
                refused.status == 1 && refused.errors.contains("not a keyboard layout"), "\(layout): \(refused.errors)")
        }
        #expect((try? String(contentsOfFile: "/etc/default/keyboard", encoding: .utf8)) == keyboard)
        for zone in ["../../etc/passwd", "/etc/passwd", ""] {
            #expect(try ExternalTool.execute(custom, ["set_timezone", zone]).status == 1, "\(zone)")
        }
        for (name, hash, why) in [
            ("Root", "$6$salt$hash", "not a user name"), ("a b", "$6$salt$hash", "not a user name"),
            ("club", "plain", "not a crypt(3) hash"), ("club\nroot", "$6$salt$hash", "not a user name"),
            ("club", "$6$salt$hash\nroot:$6$salt$other", "not a crypt(3) hash"),
            ("club", "$6$salt$ha:sh", "not a crypt(3) hash"),
        ] {
            let refused = try ExternalTool.execute(userconf, [name, hash])
            #expect(refused.status == 1 && refused.errors.contains(why), "\(name): \(refused.errors)")
        }
    }

    /// What the card leaves out, removed as dpkg's filters would have: the last rule that
    /// matches decides, a `*` crosses directories, a path no rule names stays; a line that
    /// is not a filter is refused and nothing is removed.
    @Test func whatTheCardLeavesOutIsRemovedAsDpkgWould() throws {
        let fs = try ExternalTool.temporaryDirectory("prune")
        defer { try? FileManager.default.removeItem(at: fs) }
        let files = [
            "usr/share/doc/tar/changelog.gz", "usr/share/doc/tar/copyright", "usr/share/locale/de/LC_MESSAGES/tar.mo",
            "usr/share/locale/locale.alias", "usr/lib/modules/6.12/kernel/drivers/net/wireless/intel/iwlwifi.ko.xz",
            "usr/lib/modules/6.12/kernel/drivers/net/wireless/broadcom/brcm80211/brcmfmac.ko.xz",
            "usr/lib/modules/6.12/kernel/fs/xfs/xfs.ko.xz", "usr/lib/modules/6.12/kernel/fs/mbcache.ko.xz",
            "usr/lib/modules/6.12/kernel/drivers/gpu/drm/drm.ko.xz",
            "usr/lib/modules/6.12/kernel/drivers/gpu/drm/amd/amdgpu/amdgpu.ko.xz",
            "usr/lib/aarch64-linux-gnu/espeak-ng-data/ru_dict", "usr/lib/aarch64-linux-gnu/espeak-ng-data/en_dict",
            "usr/lib/raspi-firmware/start4x.elf", "usr/lib/raspi-firmware/start4.elf",
            "usr/lib/linux-image-6.12/qcom/sm8550.dtb", "usr/lib/linux-image-6.12/broadcom/bcm2711-rpi-4-b.dtb",
            "usr/bin/delaybox",
        ]
        for file in files {
            let url = fs.appendingPathComponent(file)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data("x".utf8).write(to: url)
        }
        let rules = Self.root.appendingPathComponent("deploy/image/dpkg-excludes").path
        try ExternalTool.run([Self.tool("prune.sh"), rules, fs.path])
        let left = files.filter { FileManager.default.fileExists(atPath: fs.appendingPathComponent($0).path) }
        #expect(
            left == [
                "usr/share/doc/tar/copyright", "usr/share/locale/locale.alias",
                "usr/lib/modules/6.12/kernel/drivers/net/wireless/broadcom/brcm80211/brcmfmac.ko.xz",
                "usr/lib/modules/6.12/kernel/fs/mbcache.ko.xz", "usr/lib/modules/6.12/kernel/drivers/gpu/drm/drm.ko.xz",
                "usr/lib/aarch64-linux-gnu/espeak-ng-data/en_dict", "usr/lib/raspi-firmware/start4.elf",
                "usr/lib/linux-image-6.12/broadcom/bcm2711-rpi-4-b.dtb", "usr/bin/delaybox",
            ])
        let garbled = fs.appendingPathComponent("garbled")
        try "path-exclude=/usr/*\npath-exlude=/usr/bin/*\n".write(to: garbled, atomically: true, encoding: .utf8)
        let refused = try ExternalTool.execute(URL(fileURLWithPath: Self.tool("prune.sh")), [garbled.path, fs.path])
        #expect(refused.status == 2 && refused.errors.contains("not a path filter: path-exlude"), "\(refused.errors)")
        #expect(FileManager.default.fileExists(atPath: fs.appendingPathComponent("usr/bin/delaybox").path))
    }

    /// Imager 2's cloud-init form on the boot partition, applied by the box's first boot
    /// through the same helpers as firstrun.sh (here stand-ins that write down what they are
    /// asked), the Wi-Fi saved root-only; then both files — a password hash and a Wi-Fi key
    /// on a partition any computer reads — are gone. A helper's refusal is said with the
    /// step, and the other steps still happen.
    @Test func imager2sCloudInitFilesGoThroughTheHelpers() throws {
        let directory = try ExternalTool.temporaryDirectory("cloud-init")
        defer { try? FileManager.default.removeItem(at: directory) }
        let boot = directory.appendingPathComponent("boot"), helpers = directory.appendingPathComponent("helpers")
        let log = directory.appendingPathComponent("calls").path
        for (helper, refuses) in [
            ("raspberrypi-sys-mods/imager_custom", "set_timezone"), ("userconf-pi/userconf", "-"),
        ] {
            let url = helpers.appendingPathComponent(helper)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let script = """
                #!/bin/sh
                echo "${0##*/} $*" >> '\(log)'
                [ "$1" = \(refuses) ] && { echo "no such zone"; exit 1; }
                exit 0
                """
            try script.write(to: url, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        }
        try FileManager.default.createDirectory(at: boot, withIntermediateDirectories: true)
        let key = String(repeating: "0123456789abcdef", count: 4)
        let imager = ImagerFirstRun(
            hostname: "bar-screen-2", user: "club", passwordHash: "$5$salt$hash",
            sshKeys: ["ssh-ed25519 AAAA club@laptop"],
            wifi: (ssid: "Club House", psk: key, country: "gb"), timezone: "Mars/Olympus", keymap: "gb")
        try imager.userData.write(to: boot.appendingPathComponent("user-data"), atomically: true, encoding: .utf8)
        try imager.networkConfig?.write(
            to: boot.appendingPathComponent("network-config"), atomically: true, encoding: .utf8)
        let delaybox = BoxUnderTest.debugBuild(root: Self.root).appendingPathComponent("delaybox")
        let ran = try ExternalTool.execute(
            delaybox,
            [
                "imager-cloud-init", "--boot", boot.path, "--helpers", helpers.path, "--connections", directory.path,
                "--modprobe", directory.path,
            ])
        #expect(ran.status == 1, "a refused step is a failure: \(ran.output)")
        #expect(ran.errors.contains("time zone Mars/Olympus: no such zone"), "\(ran.errors)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(
            calls == [
                "imager_custom set_hostname bar-screen-2", "imager_custom enable_ssh -k ssh-ed25519 AAAA club@laptop",
                "userconf club $5$salt$hash", "imager_custom set_keymap gb", "imager_custom set_timezone Mars/Olympus",
            ])
        #expect(ran.output.contains("set Wi-Fi 'Club House', country GB") && !ran.output.contains(key))
        let keyfile = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasSuffix(".nmconnection") })
        #expect(
            try String(contentsOfFile: directory.appendingPathComponent(keyfile).path, encoding: .utf8).contains(
                "psk=\(key)"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: boot.path).isEmpty, "the secrets are gone")

        // A card with a broken user-data: where, and the Wi-Fi still saved; nothing at all: nothing done.
        try "hostname: [broken\n".write(to: boot.appendingPathComponent("user-data"), atomically: true, encoding: .utf8)
        try imager.networkConfig?.write(
            to: boot.appendingPathComponent("network-config"), atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: directory.appendingPathComponent(keyfile).path)
        let broken = try ExternalTool.execute(
            delaybox,
            [
                "imager-cloud-init", "--boot", boot.path, "--helpers", helpers.path, "--connections", directory.path,
                "--modprobe", directory.path,
            ])
        #expect(broken.status == 1 && broken.errors.contains("user-data:2:1: error:"), "\(broken.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).contains(keyfile))
        let none = try ExternalTool.execute(delaybox, ["imager-cloud-init", "--boot", boot.path])
        #expect(none.status == 0 && none.output.contains("no cloud-init customisation"), "\(none.output)")
    }

    /// Imager's `set_wlan` through this image's helper: the network saved as a root-only
    /// keyfile for any Wi-Fi device (hidden when asked), the key read from standard input —
    /// never on a command line — and the country's radio rules; a bad key or country is
    /// refused with what is wrong, and nothing is written.
    @Test func aWiFiNetworkFromImagerIsSavedRootOnly() throws {
        let directory = try ExternalTool.temporaryDirectory("wifi-keyfile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let delaybox = BoxUnderTest.debugBuild(root: Self.root).appendingPathComponent("delaybox")
        let arguments = ["wifi-keyfile", "--connections", directory.path, "--modprobe", directory.path]
        let key = String(repeating: "0123456789abcdef", count: 4)  // Imager passes the key itself
        let saved = try ExternalTool.execute(
            delaybox, arguments + ["--ssid", "Club House", "--country", "gb", "--hidden", "true"], input: key + "\n")
        #expect(saved.status == 0, "\(saved.errors)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let keyfile = try #require(files.first { $0.hasSuffix(".nmconnection") })
        let path = directory.appendingPathComponent(keyfile).path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("psk=\(key)") && text.contains("hidden=true") && text.contains("key-mgmt=wpa-psk"))
        #expect(!text.contains("interface-name="), "any Wi-Fi device: \(text)")
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let rules = try String(
            contentsOf: directory.appendingPathComponent("delaybox-wifi-country.conf"), encoding: .utf8)
        #expect(rules.contains("options cfg80211 ieee80211_regdom=GB"))

        let empty = try ExternalTool.temporaryDirectory("wifi-keyfile-refused")
        defer { try? FileManager.default.removeItem(at: empty) }
        let refusedArguments = ["wifi-keyfile", "--connections", empty.path, "--modprobe", empty.path]
        let short = try ExternalTool.execute(delaybox, refusedArguments + ["--ssid", "club"], input: "short")
        #expect(short.status != 0 && short.errors.contains("8-63 printable"), "\(short.errors)")
        let country = try ExternalTool.execute(
            delaybox, refusedArguments + ["--ssid", "club", "--country", "G1"], input: "long enough")
        #expect(country.status != 0 && country.errors.contains("two letters"), "\(country.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).isEmpty)
    }
}
