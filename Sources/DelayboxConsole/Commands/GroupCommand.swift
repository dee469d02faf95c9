extension ConsoleCommand {
    /// `group | group delay SECONDS | group channel NAME | group update --canary BOX [--now]`:
    /// the page's owner speaks for the venue; a broker's client publishes on the group's topic
    /// itself, and a box does not relay what it hears.
    static let group = ConsoleCommand(
        name: "group", usage: "group | group delay SECONDS | group channel NAME | group update --canary BOX [--now]",
        summary:
            "the boxes of this box's venue group (mqtt.group) as last heard; the same delay or channel for all of them; "
            + "the venue updated in stages",
        arguments: ["delay", "channel", "update"],
        doors: .byArguments { action, door in
            switch action {
            case .groupMembers: nil
            case .toGroup:
                door == .page ? nil : "publish a group's command on its own topic: delaybox/group/GROUP/command"
            default: NetworkDoorPolicy.notDeclared
            }
        }
    ) { words in
        switch (words.arguments.count, words.first) {
        case (0, _): return words.request(.groupMembers)
        case (2..., "delay"), (2..., "channel"), (3...4, "update"):
            // Checked here as each box will check it: a line every box refuses is not sent.
            let line = words.arguments.joined(separator: " ")
            switch ConsoleLanguage.parse(line)?.map(\.action) {
            case .failure(let error)?: return .failure(error)
            // A delay set or moved; a channel chosen by name, or the next; an update in stages.
            case .success(.command)?, .success(.selectChannel)?, .success(.stagedUpdate)?:
                return words.request(.toGroup(line))
            default: return words.usageError
            }
        default: return words.usageError
        }
    }
}
