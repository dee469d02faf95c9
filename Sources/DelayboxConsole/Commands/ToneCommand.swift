extension ConsoleCommand {
    /// `tone on | tone off`: a test tone at the jack instead of the programme.
    static let tone = ConsoleCommand(
        name: "tone", usage: "tone on | tone off", summary: "a test tone instead of the programme",
        arguments: ["on", "off"], doors: .listener
    ) { words in
        switch (words.arguments.count, words.first) {
        case (1, "on"): words.request(.tone(on: true))
        case (1, "off"): words.request(.tone(on: false))
        default: words.usageError
        }
    }
}
