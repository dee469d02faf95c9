import DelayboxCommands

extension ConsoleCommand {
    /// `volume [0-100 | +N | -N]`.
    static let volume = ConsoleCommand(
        name: "volume", usage: "volume [0-100 | +N | -N]", summary: "show or set the volume (perceptual scale)",
        doors: .listener
    ) { words in
        switch words.arguments.count {
        case 0: words.request(.showVolume)
        case 1: volume(words.arguments[0]).flatMap { words.request(.command($0)) }
        default: words.usageError
        }
    }

    private static func volume(_ text: String) -> Result<Command, ConsoleError> {
        if let first = text.first, first == "+" || first == "-", let steps = Int(text.dropFirst()),
            (0...100).contains(steps)
        {
            return .success(.adjustVolume(steps: first == "+" ? steps : -steps))
        }
        guard let volume = Int(text), (0...100).contains(volume) else {
            return .failure(ConsoleError("'\(text)' is not a volume: 0-100, or +N / -N"))
        }
        return .success(.setVolume(volume))
    }
}
