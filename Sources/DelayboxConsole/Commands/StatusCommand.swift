extension ConsoleCommand {
    /// `status`: what every door reads, the page's and Home Assistant's JSON too.
    static let status = ConsoleCommand(
        name: "status", usage: "status",
        summary: "state, channel, delay set and available, volume, buffer, now playing, uptime", doors: .listener
    ) { words in
        words.arguments.isEmpty ? words.request(.status) : words.usageError
    }
}
