import DelayboxConfig
import DelayboxConfigFile
import Testing

/// Issue 68: Raspberry Pi Imager 2's customisation in cloud-init's form, read into the
/// steps its firstrun.sh takes — the files as Imager's generator writes them.
@Suite(.timeLimit(.minutes(10))) struct ImagerCloudInitTests {
    func tree(_ text: String, _ file: String) -> ConfigNode? {
        var diagnostics: [ConfigDiagnostic] = []
        return ConfigFile.parse(text, file: file, emptyAllowed: true, diagnostics: &diagnostics)
    }

    func read(_ userData: String?, _ network: String? = nil) -> ImagerCloudInit {
        ImagerCloudInit(
            userData: userData.flatMap { tree($0, "user-data") }, networkConfig: network.flatMap { tree($0, "nc") })
    }

    static let keysOnly = """
        #cloud-config
        hostname: bar-screen-2
        manage_etc_hosts: true
        packages:
        - avahi-daemon
        apt:
          conf: |
            Acquire {
              Check-Date "false";
            };
        timezone: Europe/London
        keyboard:
          model: pc105
          layout: "gb"
        enable_ssh: true
        users:
        - name: club
          groups: users,adm,dialout,audio,netdev,video,plugdev,cdrom,games,input,gpio,spi,i2c,render,sudo
          shell: /bin/bash
          lock_passwd: true
          ssh_authorized_keys:
            - ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIF0 volunteer@laptop
            - ssh-rsa AAAAB3NzaC1yc2E second
          sudo: ALL=(ALL) NOPASSWD:ALL

        """

    static let network = """
        network:
          version: 2
          wifis:
            wlan0:
              dhcp4: true
              regulatory-domain: "GB"
              access-points:
                "Club \\"House\\" 5G":
                  hidden: true
                  password: "8f2b1c9d0e3a4b5c6d7e8f901a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d"
              optional: true

        """

    /// Everything Imager gives, in firstrun.sh's order: the name, the keys (logins by key
    /// only), the user with its password locked, the Wi-Fi with its escaped name, key,
    /// hidden flag and country, the keyboard, the time zone; what the image has already
    /// (Avahi, apt's date check) is no warning.
    @Test func imagersFilesBecomeFirstrunsSteps() {
        let read = read(Self.keysOnly, Self.network)
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        #expect(
            read.steps == [
                .hostname("bar-screen-2"),
                .sshKeys(["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIF0 volunteer@laptop", "ssh-rsa AAAAB3NzaC1yc2E second"]
                ),
                .user(name: "club", passwordHash: ""),
                .wifi(
                    ssid: "Club \"House\" 5G",
                    password: "8f2b1c9d0e3a4b5c6d7e8f901a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d",
                    hidden: true, country: "GB"),
                .keymap("gb"), .timezone("Europe/London"),
            ])
        // The journal hears what was set, never a key or a hash.
        let words = read.steps.map(ImagerCloudInit.describe).joined(separator: "; ")
        #expect(words.contains("SSH by key only (2 keys)") && words.contains("Wi-Fi 'Club \"House\" 5G' (hidden)"))
        #expect(!words.contains("8f2b1c") && !words.contains("AAAA"))
    }

    /// A password and SSH with passwords: the hash is the user's, SSH takes passwords; an
    /// open network has no key; `network:` may be left out, as netplan allows.
    @Test func aPasswordAndPasswordLoginsAndAnOpenNetwork() {
        let userData = """
            hostname: club
            enable_ssh: true
            users:
            - name: alice
              lock_passwd: false
              passwd: $5$salt$hash
            ssh_pwauth: true
            """
        let network = "version: 2\nwifis:\n  wlan0:\n    access-points:\n      Guests: {}\n"
        let read = read(userData, network)
        #expect(read.diagnostics.isEmpty, "\(read.diagnostics)")
        #expect(
            read.steps == [
                .hostname("club"), .sshPasswords, .user(name: "alice", passwordHash: "$5$salt$hash"),
                .wifi(ssid: "Guests", password: "", hidden: false, country: ""),
            ])
        #expect(self.read("hostname: quiet\n").steps == [.hostname("quiet")], "SSH stays off unless asked")
        #expect(self.read("ssh_pwauth: true\n").steps.isEmpty, "password logins are no request to run SSH")
    }

    /// What cannot be read costs its own step and says where; what this image does not do
    /// (commands to run, a second user, static addresses) is a warning, nothing more.
    @Test func whatCannotBeReadSaysWhereAndCostsOnlyItsStep() {
        let userData = """
            hostname: [not, one]
            timezone: Europe/Berlin
            enable_ssh: maybe
            runcmd:
              - [ rfkill, unblock, wifi ]
            users:
            - name: alice
              plain_text_passwd: secret
            - name: bob
            """
        let network = "network:\n  version: 1\n  ethernets:\n    eth0: {dhcp4: false}\n"
        let read = read(userData, network)
        #expect(read.steps == [.user(name: "alice", passwordHash: ""), .timezone("Europe/Berlin")])
        let said = read.diagnostics.map(\.description)
        for expected in [
            "user-data:1:11: error: 'hostname' is one value", "user-data:3:13: error: 'enable_ssh' is true or false",
            "user-data:4:1: warning: 'runcmd' is not applied", "user-data:9:3: warning: only the first user",
            "error: a password is given as its crypt(3) hash", "nc:2:12: error: only netplan's version 2",
            "nc:3:3: warning: 'ethernets' is not applied",
        ] {
            #expect(said.contains { $0.contains(expected) }, "\(expected) in \(said)")
        }
        #expect(!said.contains { $0.contains("secret") })
    }
}
