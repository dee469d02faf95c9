extension ConsoleCommand {
    /// `pause`: the buttons' pause.
    static let pause = ConsoleCommand(
        name: "pause", usage: "pause", summary: "hold playout; recording goes on, so the delay grows",
        doors: .listener
    ) { words in
        words.arguments.isEmpty ? words.request(.command(.pause)) : words.usageError
    }

    /// `resume`: the buttons' resume.
    static let resume = ConsoleCommand(
        name: "resume", usage: "resume", summary: "play on from where it was held", doors: .listener
    ) { words in
        words.arguments.isEmpty ? words.request(.command(.resume)) : words.usageError
    }
}
