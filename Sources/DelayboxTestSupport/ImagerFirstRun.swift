import Foundation

/// What Raspberry Pi Imager (1.8) writes on a card's boot partition for its "OS
/// customisation" of an image whose os_list entry says `init_format: systemd`: `firstrun.sh`,
/// and the words it adds to `cmdline.txt` so that the first boot runs it (then reboots). Its
/// lines as Imager writes them — the helpers when the image has them, its own fallbacks when
/// not — so that a test flashes a card as a club's volunteer would.
public struct ImagerFirstRun: Sendable {
    public var hostname: String
    public var user: String
    /// crypt(3), as Imager makes it from the password typed (`openssl passwd -5`).
    public var passwordHash: String
    /// SSH public keys: logins by key only. Empty: SSH with passwords.
    public var sshKeys: [String]
    public var wifi: (ssid: String, psk: String, country: String)?
    public var timezone: String
    public var keymap: String
    /// Where the script and cmdline.txt are named: `/boot` (Imager for older images, and
    /// some for Raspberry Pi OS 12) or `/boot/firmware`.
    public var bootPath: String

    public init(
        hostname: String, user: String, passwordHash: String, sshKeys: [String],
        wifi: (ssid: String, psk: String, country: String)?, timezone: String, keymap: String,
        bootPath: String = "/boot"
    ) {
        (self.hostname, self.user, self.passwordHash, self.sshKeys) = (hostname, user, passwordHash, sshKeys)
        (self.wifi, self.timezone, self.keymap, self.bootPath) = (wifi, timezone, keymap, bootPath)
    }

    static let custom = "/usr/lib/raspberrypi-sys-mods/imager_custom"

    /// Imager's single quoting.
    static func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    /// A helper's call when the image has it, else Imager's own lines.
    static func either(_ call: String, _ fallback: [String], helper: String = custom) -> [String] {
        ["if [ -f \(helper) ]; then", "   \(call)", "else"] + fallback.map { "   " + $0 } + ["fi"]
    }

    /// The script's text.
    public var script: String {
        var lines = ["#!/bin/bash", "", "set +e", "", #"CURRENT_HOSTNAME=`cat /etc/hostname | tr -d " \t\n\r"`"#]
        lines += Self.either(
            "\(Self.custom) set_hostname \(hostname)",
            [
                "echo \(hostname) >/etc/hostname",
                #"sed -i "s/127.0.1.1.*$CURRENT_HOSTNAME/127.0.1.1\t"# + hostname + #"/g" /etc/hosts"#,
            ])
        lines += ["FIRSTUSER=`getent passwd 1000 | cut -d: -f1`", "FIRSTUSERHOME=`getent passwd 1000 | cut -d: -f6`"]
        if sshKeys.isEmpty {
            lines += Self.either("\(Self.custom) enable_ssh", ["systemctl enable ssh"])
        } else {
            lines += Self.either(
                "\(Self.custom) enable_ssh -k " + sshKeys.map(Self.quoted).joined(separator: " "),
                [
                    #"install -o "$FIRSTUSER" -m 700 -d "$FIRSTUSERHOME/.ssh""#,
                    #"install -o "$FIRSTUSER" -m 600 <(printf ""# + sshKeys.joined(separator: "\\n")
                        + #"") "$FIRSTUSERHOME/.ssh/authorized_keys""#,
                    "echo 'PasswordAuthentication no' >>/etc/ssh/sshd_config", "systemctl enable ssh",
                ])
        }
        lines += Self.either(
            "/usr/lib/userconf-pi/userconf \(Self.quoted(user)) \(Self.quoted(passwordHash))",
            [
                #"echo "$FIRSTUSER:"\#(Self.quoted(passwordHash)) | chpasswd -e"#,
                #"if [ "$FIRSTUSER" != "\#(user)" ]; then"#, #"   usermod -l "\#(user)" "$FIRSTUSER""#,
                #"   usermod -m -d "/home/\#(user)" "\#(user)""#, #"   groupmod -n "\#(user)" "$FIRSTUSER""#, "fi",
            ], helper: "/usr/lib/userconf-pi/userconf")
        if let wifi {
            lines += Self.either(
                "\(Self.custom) set_wlan \(Self.quoted(wifi.ssid)) \(Self.quoted(wifi.psk)) \(Self.quoted(wifi.country))",
                ["echo 'no wpa_supplicant.conf on this image' >&2"])
        }
        lines += Self.either(
            "\(Self.custom) set_keymap \(Self.quoted(keymap))\n   \(Self.custom) set_timezone \(Self.quoted(timezone))",
            ["rm -f /etc/localtime", "echo \"\(timezone)\" >/etc/timezone"])
        lines += [
            "rm -f \(bootPath)/firstrun.sh", "sed -i 's| systemd.run.*||g' \(bootPath)/cmdline.txt", "exit 0", "",
        ]
        return lines.joined(separator: "\n")
    }

    /// Imager 2's other form, for images whose os_list entry says `init_format: cloudinit-rpi`:
    /// cloud-init's `user-data`, as its customisation generator writes it.
    public var userData: String {
        var lines = [
            "#cloud-config", "hostname: \(hostname)", "manage_etc_hosts: true", "packages:", "- avahi-daemon", "apt:",
            "  conf: |", "    Acquire {", "      Check-Date \"false\";", "    };", "timezone: \(timezone)", "keyboard:",
            "  model: pc105", "  layout: \"\(keymap)\"", "enable_ssh: true", "users:", "- name: \(user)",
            "  groups: users,adm,dialout,audio,netdev,video,plugdev,cdrom,games,input,gpio,spi,i2c,render,sudo",
            "  shell: /bin/bash",
        ]
        lines += passwordHash.isEmpty ? ["  lock_passwd: true"] : ["  lock_passwd: false", "  passwd: \(passwordHash)"]
        if !sshKeys.isEmpty {
            lines += ["  ssh_authorized_keys:"] + sshKeys.map { "    - " + $0 } + ["  sudo: ALL=(ALL) NOPASSWD:ALL"]
        }
        if sshKeys.isEmpty { lines.append("ssh_pwauth: true") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// cloud-init's `network-config` as Imager 2 writes it (netplan version 2); nil without Wi-Fi.
    public var networkConfig: String? {
        guard let wifi else { return nil }
        let ssid = wifi.ssid.replacingOccurrences(of: "\"", with: "\\\"")
        return [
            "network:", "  version: 2", "  wifis:", "    wlan0:", "      dhcp4: true",
            "      regulatory-domain: \"\(wifi.country.uppercased())\"", "      access-points:", "        \"\(ssid)\":",
            "          password: \"\(wifi.psk)\"", "      optional: true",
        ].joined(separator: "\n") + "\n"
    }

    /// `cmdline` with what Imager adds to it: the Wi-Fi's country for the radio, and the
    /// script run once at the next boot, which reboots after it.
    public func commandLine(after cmdline: String) -> String {
        var words = cmdline.trimmingCharacters(in: .whitespacesAndNewlines)
        if let wifi { words += " cfg80211.ieee80211_regdom=\(wifi.country)" }
        return words
            + " systemd.run=\(bootPath)/firstrun.sh systemd.run_success_action=reboot"
            + " systemd.unit=kernel-command-line.target\n"
    }
}
