/// What a door on the network (the page, MQTT) may ask of the box: what a listener changes
/// — the delay, the volume, presets, ads, channels from a station's http(s) link; on the
/// page, which its owner logged in to, one of the shipped boards and the box's Wi-Fi too — and nothing that
/// names a file, a device, a host, a credential or a door. Those are the
/// owner's, at the serial console, the local socket (`delayboxctl`) or the files: a
/// neighbour on the LAN or a publisher on the venue's broker reaches the network doors,
/// never those (docs/security.md, "What a neighbour on the LAN can do"). Each command
/// declares which doors carry it (`ConsoleCommand.doors`); here the rule that asks it, the
/// keys and links a network door may give, and the one way a door takes a line.
public enum NetworkDoorPolicy {
    /// The network doors.
    public enum Door: Sendable, Equatable {
        case page
        case mqtt
        /// A venue group's topic on the broker (`delaybox/group/GROUP/command`): what every
        /// screen of the venue agrees on, and no more.
        case group

        var name: String {
            switch self {
            case .page: "the page"
            case .mqtt: "MQTT"
            case .group: "a group's topic"
            }
        }
    }

    /// The most channels a network door may leave the box with (`channel add`): each one
    /// is a reload of the config on the playout thread, and the list is the owner's to grow.
    public static let maximumChannels = 32

    /// `config set` keys a network door may set: the defaults a listener changes anyway
    /// with the knob, and the channels' station links and ads. Not `max_delay` (memory),
    /// `max_volume` and `start_volume_max` (an installer's caps), `clip_cache_mb` (disk).
    public static let defaultsKeys: Set<String> = [
        "delay", "volume", "delay_step", "initial_buffer", "feedback_sounds",
    ]

    /// A channel's keys a network door may set (`channels.N.KEY`); `url` and `mute_music`
    /// only to an http(s) link. Not `record` (memory) or `ads_from` (which hosts a title
    /// may fetch clips from).
    public static let channelKeys: Set<String> = ["name", "url", "mute_music", "ads"]

    /// Other keys a network door may set: the output's latency beyond the device (a
    /// listener's Bluetooth speaker), a number that names nothing.
    public static let otherKeys: Set<String> = ["audio.output_latency", "audio.output_latency_ms"]

    /// The longest link a network door may give (bytes).
    public static let maximumLinkBytes = 2_000

    /// Nil when `door` may carry out `request`; else the refusal, in the console's words,
    /// saying where it can be done. Each command declares its own (`ConsoleCommand.doors`);
    /// a request no command read from a console line — one built in code — is refused.
    public static func refusal(_ request: ConsoleRequest, door: Door) -> String? {
        guard let name = request.command, let command = ConsoleLanguage.command(named: name) else {
            return notDeclared
        }
        return command.doors.refusal(request.action, door: door)
    }

    /// A console line as a network door takes it.
    public enum Admission: Sendable, Equatable {
        /// An empty line: nothing asked.
        case empty
        /// Not a line of the language, or a bad argument.
        case unreadable(ConsoleError)
        /// Understood, and not this door's to ask: why, and where it is done.
        case refused(String)
        /// To be answered: the request, marked as come through the door.
        case admitted(ConsoleRequest)
    }

    /// Reads `line` and asks its command's policy whether `door` may carry it — parse,
    /// then policy, in this order for every network door.
    public static func admit(_ line: String, door: Door) -> Admission {
        switch ConsoleLanguage.parse(line) {
        case nil: return .empty
        case .failure(let error)?: return .unreadable(error)
        case .success(var request)?:
            if let refusal = refusal(request, door: door) { return .refused(refusal) }
            request.door = door
            return .admitted(request)
        }
    }

    /// The refusal of what no command declared a network door may carry.
    static let notDeclared = "no command lets a network door ask this; the box's console or delayboxctl can"

    /// What a venue group's topic carries, as its refusal of everything else says: a delay
    /// set or moved, a channel chosen (by name or the next), an update in stages — exactly
    /// those, checked on the parsed line (a first word alone let `channel add` through).
    static let groupCommands =
        "a group command is delay SECONDS|+S|-S|live, channel NAME|next or update --canary BOX; "
        + "anything else is published on one box's own topic"

    /// Keys a backup restored from a network door may set beyond `config set`'s: the
    /// venue's MQTT settings but its secret and its CA file, the update window — what a new
    /// card takes to be the same box (issue 70).
    public static let backupKeys: Set<String> = [
        "mqtt.broker", "mqtt.username", "mqtt.group", "mqtt.topic_prefix", "mqtt.client_id", "mqtt.venue_clock",
        "update.window",
    ]

    /// Nil when a backup restored through `door` may set `key` (a leaf's dotted path) to
    /// `value`; else why not — so a backup is no way round what the door may change.
    public static func restoreRefusal(key: String, value: String, door: Door) -> String? {
        backupKeys.contains(key) ? nil : configRefusal(key: key, value: value, door: door)
    }

    /// Nil when a network door may set `key` to `value`: a key of the list, and a station's
    /// link an http(s) one.
    static func configRefusal(key: String, value: String, door: Door) -> String? {
        if let refusal = keyRefusal(key, door: door) { return refusal }
        return ["url", "mute_music"].contains(key.split(separator: ".").last ?? "") ? linkRefusal(value) : nil
    }

    /// Nil when `key` is one a network door may set (and so read); else the owner's words.
    static func keyRefusal(_ key: String, door: Door) -> String? {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let owners =
            "'\(key)' is the owner's: set it at the box's serial console, with delayboxctl, or in "
            + "/etc/delaybox/delaybox.conf — \(door.name) may set defaults.{\(defaultsKeys.sorted().joined(separator: ","))} "
            + "and channels.N.{\(channelKeys.sorted().joined(separator: ","))}, "
            + otherKeys.sorted().joined(separator: ", ")
        if otherKeys.contains(key) { return nil }
        switch parts.count {
        case 2 where parts[0] == "defaults" && defaultsKeys.contains(parts[1]):
            return nil
        case 3
        where parts[0] == "channels" && parts[1].allSatisfy(\.isASCII) && Int(parts[1]) != nil
            && channelKeys.contains(parts[2]):
            return nil
        default:
            return owners
        }
    }

    /// Nil for a station's http(s) link of a sane length; else why not.
    public static func linkRefusal(_ url: String) -> String? {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), url.utf8.count <= maximumLinkBytes else {
            return "a station is given by its http:// or https:// link (at most \(maximumLinkBytes) bytes); "
                + "a file, a device or another protocol is named in the board config, by its owner"
        }
        return nil
    }
}
