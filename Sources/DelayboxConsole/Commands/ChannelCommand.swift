extension ConsoleCommand {
    /// `channel [list | next | NAME | add NAME URL | remove NAME]`: a network door adds a
    /// station only by its http(s) link; a group's topic chooses one (by name, or the next)
    /// on every box of the venue.
    static let channel = ConsoleCommand(
        name: "channel", usage: "channel [list | next | NAME | add NAME URL | remove NAME]",
        summary: "list the channels, switch, or add one from a station's link (config save keeps it)",
        arguments: ["list", "next", "add", "remove"],
        doors: DoorPolicy(
            network: { action, _ in
                switch action {
                case .addChannel(_, let url): NetworkDoorPolicy.linkRefusal(url)
                case .listChannels, .command(.nextChannel), .selectChannel, .removeChannel: nil
                default: NetworkDoorPolicy.notDeclared
                }
            },
            group: { action in
                switch action {
                case .command(.nextChannel), .selectChannel: true
                default: false
                }
            })
    ) { words in
        let arguments = words.arguments
        switch (arguments.count, words.first) {
        case (0, _), (1, "list"): return words.request(.listChannels)
        case (1, "next"): return words.request(.command(.nextChannel))
        case (let count, "add") where count >= 3:
            return words.request(
                .addChannel(name: arguments.dropFirst().dropLast().joined(separator: " "), url: arguments[count - 1]))
        case (2..., "remove"): return words.request(.removeChannel(arguments.dropFirst().joined(separator: " ")))
        case (1, "add"), (1, "remove"): return words.usageError
        default: return words.request(.selectChannel(arguments.joined(separator: " ")))
        }
    }
}
