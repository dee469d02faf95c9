extension ConsoleCommand {
    /// `mute [on|off]`.
    static let mute = ConsoleCommand(
        name: "mute", usage: "mute [on|off]",
        summary: "mute or unmute the output (without on or off: the other way)", arguments: ["on", "off"],
        doors: .listener
    ) { words in
        switch (words.arguments.count, words.first) {
        case (0, _): words.request(.command(.toggleMute))
        case (1, "on"): words.request(.command(.setMuted(true)))
        case (1, "off"): words.request(.command(.setMuted(false)))
        default: words.usageError
        }
    }
}
