extension ConsoleCommand {
    /// `stats [watch]`: a live view is the console's; a network door reads it once.
    static let stats = ConsoleCommand(
        name: "stats", usage: "stats [watch]",
        summary: "underruns, xruns, reconnects, drift, delay error, CPU, RSS; watch refreshes", arguments: ["watch"],
        doors: .byArguments { action, _ in
            switch action {
            case .stats(watch: false): nil
            case .stats(watch: true): "stats watch is for the console; stats answers once"
            default: NetworkDoorPolicy.notDeclared
            }
        }
    ) { words in
        switch (words.arguments.count, words.first) {
        case (0, _): words.request(.stats(watch: false))
        case (1, "watch"): words.request(.stats(watch: true))
        default: words.usageError
        }
    }
}
