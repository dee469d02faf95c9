/// What Raspberry Pi Imager 2 writes on a card's boot partition for its "OS customisation"
/// when an image's os_list entry says `init_format: cloudinit-rpi` — cloud-init's `user-data`
/// and `network-config` (issue 68) — read without cloud-init (and the Python it needs, which the
/// box does not) into the steps Imager's own firstrun.sh takes through the image's helpers
/// (`imager_custom`, `userconf`), so both customisations end the same. What Imager writes is
/// understood; anything else is named in a warning and left alone, and one bad value costs
/// only its own step.
public struct ImagerCloudInit: Sendable, Equatable {
    /// One change to the system, in the order firstrun.sh makes them.
    public enum Step: Sendable, Equatable {
        /// `imager_custom set_hostname NAME`.
        case hostname(String)
        /// `imager_custom enable_ssh -k KEY…`: the first user's keys, logins by key only.
        case sshKeys([String])
        /// `imager_custom enable_ssh`: SSH with passwords.
        case sshPasswords
        /// `userconf NAME HASH`: the first user (uid 1000) named, its password the crypt(3)
        /// hash; "" keeps the password locked (keys only).
        case user(name: String, passwordHash: String)
        /// The saved Wi-Fi (`delaybox wifi-keyfile`): a passphrase, the 64-hex key Imager
        /// derives, or "" for an open network; the country two letters or "".
        case wifi(ssid: String, password: String, hidden: Bool, country: String)
        /// `imager_custom set_keymap LAYOUT`.
        case keymap(String)
        /// `imager_custom set_timezone ZONE`.
        case timezone(String)
    }

    public private(set) var steps: [Step] = []

    /// A step in words, its secrets left out (it goes to the journal and the console).
    public static func describe(_ step: Step) -> String {
        switch step {
        case .hostname(let name): "host name \(name)"
        case .sshKeys(let keys): "SSH by key only (\(keys.count) key\(keys.count == 1 ? "" : "s"))"
        case .sshPasswords: "SSH with passwords"
        case .user(let name, let hash):
            "user \(name)" + (hash.isEmpty ? " (no password: keys only)" : " (password set)")
        case .wifi(let ssid, _, let hidden, let country):
            "Wi-Fi '\(ssid)'" + (hidden ? " (hidden)" : "") + (country.isEmpty ? "" : ", country \(country)")
        case .keymap(let layout): "keyboard \(layout)"
        case .timezone(let zone): "time zone \(zone)"
        }
    }
    /// Values that could not be read (errors: their step is skipped) and keys this image
    /// does not apply (warnings).
    public private(set) var diagnostics: [ConfigDiagnostic] = []

    /// Keys Imager writes whose effect the image has already: Avahi is installed, /etc/hosts
    /// follows the host name, the clock's check is apt's business, the Pi's interfaces are
    /// the board file's.
    static let alreadySo: Set<String> = ["manage_etc_hosts", "packages", "apt", "fqdn", "preserve_hostname", "rpi"]

    public init(userData: ConfigNode?, networkConfig: ConfigNode?) {
        var user: (name: String, hash: String, keys: [String])?
        var ssh = false
        var hostname: String?, keymap: String?, timezone: String?
        if let userData, let entries = mapping(userData, "user-data") {
            for (key, value) in entries {
                switch key.name {
                case "hostname": hostname = text(value, key.name)
                case "timezone": timezone = text(value, key.name)
                case "keyboard":
                    if mapping(value, key.name) != nil, let layout = value["layout"] { keymap = text(layout, "layout") }
                case "enable_ssh": ssh = flag(value, key.name) ?? ssh
                case "ssh_pwauth": _ = flag(value, key.name)  // checked; sshd's own default applies
                case "users": user = firstUser(value)
                case let name where Self.alreadySo.contains(name): continue
                default: warn(at: key.location, "'\(key.name)' is not applied on this image (it has no cloud-init)")
                }
            }
        }
        if let hostname { steps.append(.hostname(hostname)) }
        if let keys = user?.keys, !keys.isEmpty {
            steps.append(.sshKeys(keys))
        } else if ssh {
            // `ssh_pwauth` says how sshd logs in, not that it runs: SSH stays off unless asked.
            steps.append(.sshPasswords)
        }
        if let user { steps.append(.user(name: user.name, passwordHash: user.hash)) }
        if let networkConfig { readNetwork(networkConfig) }
        if let keymap { steps.append(.keymap(keymap)) }
        if let timezone { steps.append(.timezone(timezone)) }
    }

    /// The first user of `users:` — the card's uid 1000, as Imager's customisation names
    /// one; a second is not made.
    private mutating func firstUser(_ node: ConfigNode) -> (name: String, hash: String, keys: [String])? {
        guard case .sequence(let items, _) = node else {
            fail(at: node.location, "'users' is a list of users")
            return nil
        }
        let made = items.filter { if case .mapping = $0 { true } else { false } }
        guard let first = made.first else { return nil }
        for extra in made.dropFirst() { warn(at: extra.location, "only the first user is made (uid 1000)") }
        guard let name = first["name"].flatMap({ text($0, "name") }) else {
            fail(at: first.location, "the user has no 'name'")
            return nil
        }
        // Imager writes `lock_passwd: false` beside a password, `true` for keys only.
        let locked = first["lock_passwd"].flatMap { flag($0, "lock_passwd") } ?? false
        let hash = locked ? "" : first["passwd"].flatMap { text($0, "passwd") } ?? ""
        if let plain = first["plain_text_passwd"] {
            fail(at: plain.location, "a password is given as its crypt(3) hash ('passwd'), never as text")
        }
        var keys: [String] = []
        if let list = first["ssh_authorized_keys"] ?? first["ssh-authorized-keys"] {
            if case .sequence(let items, _) = list {
                keys = items.compactMap { text($0, "ssh_authorized_keys") }.filter { !$0.isEmpty }
            } else {
                fail(at: list.location, "'ssh_authorized_keys' is a list of public keys")
            }
        }
        return (name, hash, keys)
    }

    /// Netplan's version 2 as Imager writes it (`network:` at the top, or not): every
    /// access point of every Wi-Fi interface is saved; Ethernet is NetworkManager's DHCP.
    private mutating func readNetwork(_ root: ConfigNode) {
        let network = root["network"] ?? root
        guard let entries = mapping(network, "network") else { return }
        for (key, value) in entries {
            switch key.name {
            case "version":
                if text(value, "version") != "2" { fail(at: value.location, "only netplan's version 2 is read") }
            case "wifis":
                for (interface, settings) in mapping(value, "wifis") ?? [] where interface.name != "renderer" {
                    readWiFi(settings, interface: interface.name)
                }
            case "renderer": continue
            default: warn(at: key.location, "'\(key.name)' is not applied on this image: NetworkManager sets it up")
            }
        }
    }

    private mutating func readWiFi(_ settings: ConfigNode, interface: String) {
        guard mapping(settings, interface) != nil else { return }
        let country = settings["regulatory-domain"].flatMap { text($0, "regulatory-domain") } ?? ""
        guard let points = settings["access-points"] else {
            fail(at: settings.location, "\(interface) has no 'access-points'")
            return
        }
        for (ssid, point) in mapping(points, "access-points") ?? [] {
            var password = ""
            var hidden = false
            if case .mapping = point {
                let given = point["password"] ?? point["auth"]?["password"]
                password = given.flatMap { text($0, "password") } ?? ""
                hidden = point["hidden"].flatMap { flag($0, "hidden") } ?? false
            }
            steps.append(.wifi(ssid: ssid.name, password: password, hidden: hidden, country: country))
        }
    }

    // MARK: Reading values

    private mutating func mapping(_ node: ConfigNode, _ what: String) -> [(key: ConfigNode.Key, value: ConfigNode)]? {
        if case .mapping(let entries, _) = node { return entries }
        fail(at: node.location, "'\(what)' is a mapping of keys, not '\(node.summary.prefix(40))'")
        return nil
    }

    private mutating func text(_ node: ConfigNode, _ what: String) -> String? {
        if case .scalar(let value, _) = node { return value }
        fail(at: node.location, "'\(what)' is one value, not \(node.summary.prefix(40))")
        return nil
    }

    /// YAML 1.1's booleans, as cloud-init reads them.
    private mutating func flag(_ node: ConfigNode, _ what: String) -> Bool? {
        guard let value = text(node, what) else { return nil }
        switch value.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default:
            fail(at: node.location, "'\(what)' is true or false, not '\(value.prefix(40))'")
            return nil
        }
    }

    private mutating func fail(at location: SourceLocation, _ message: String) {
        diagnostics.append(ConfigDiagnostic(.error, at: location, message))
    }

    private mutating func warn(at location: SourceLocation, _ message: String) {
        diagnostics.append(ConfigDiagnostic(.warning, at: location, message))
    }
}
