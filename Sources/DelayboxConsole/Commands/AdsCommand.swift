extension ConsoleCommand {
    /// `ads [on | off]`.
    static let ads = ConsoleCommand(
        name: "ads", usage: "ads [on | off]", summary: "show or set whether ad breaks play their ad",
        arguments: ["on", "off"], doors: .listener
    ) { words in
        switch (words.arguments.count, words.first) {
        case (0, _): words.request(.showAds)
        case (1, "on"): words.request(.command(.setAds(true)))
        case (1, "off"): words.request(.command(.setAds(false)))
        default: words.usageError
        }
    }
}
