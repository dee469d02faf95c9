extension ConsoleCommand {
    /// `preset [recall] N | preset save N`: slots 1-9.
    static let preset = ConsoleCommand(
        name: "preset", usage: "preset [recall] N | preset save N", summary: "recall or save a delay preset",
        arguments: ["save", "recall"], doors: .listener
    ) { words in
        let arguments = words.arguments
        switch (arguments.count, words.first) {
        case (1, _): return slot(arguments[0]).flatMap { words.request(.command(.recallPreset($0))) }
        case (2, "recall"): return slot(arguments[1]).flatMap { words.request(.command(.recallPreset($0))) }
        case (2, "save"): return slot(arguments[1]).flatMap { words.request(.command(.savePreset($0))) }
        default: return words.usageError
        }
    }

    private static func slot(_ text: String) -> Result<Int, ConsoleError> {
        guard let slot = Int(text), (1...9).contains(slot) else {
            return .failure(ConsoleError("a preset is 1-9; got '\(text)'"))
        }
        return .success(slot)
    }
}
