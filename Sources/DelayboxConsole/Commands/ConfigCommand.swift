extension ConsoleCommand {
    /// `config show | config get KEY | config set KEY VALUE | config save`: a network door
    /// reads and sets the keys a listener changes (`NetworkDoorPolicy.keyRefusal`), never
    /// the owner's devices, hosts, doors and secrets.
    static let config = ConsoleCommand(
        name: "config", usage: "config show | config get KEY | config set KEY VALUE | config save",
        summary: "the running configuration", arguments: ["show", "get", "set", "save"],
        doors: .byArguments { action, door in
            switch action {
            case .configShow:
                "config show is the owner's (devices, hosts, doors): status, channel list and config get "
                    + "KEY (defaults.delay, channels.N.url, …) say what a listener changes"
            // The owner's keys are not read from the LAN or a broker either: a device, a host or
            // a secret is nobody's business there (the same list as `config set`).
            case .configGet(let key): NetworkDoorPolicy.keyRefusal(key, door: door)
            case .configSet(let key, let value): NetworkDoorPolicy.configRefusal(key: key, value: value, door: door)
            case .configSave: nil
            default: NetworkDoorPolicy.notDeclared
            }
        }
    ) { words in
        let arguments = words.arguments
        switch (arguments.count, words.first) {
        case (1, "show"): return words.request(.configShow)
        case (1, "save"): return words.request(.configSave)
        case (2, "get"): return words.request(.configGet(key: arguments[1]))
        case (3..., "set"):
            return words.request(.configSet(key: arguments[1], value: arguments.dropFirst(2).joined(separator: " ")))
        default: return words.usageError
        }
    }
}
