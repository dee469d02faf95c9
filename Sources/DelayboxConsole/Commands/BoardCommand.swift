extension ConsoleCommand {
    /// `board | board list | board use NAME`: the hardware is the owner's — chosen on the
    /// page they logged in to or at the box, never by a publisher; anyone may read it.
    static let board = ConsoleCommand(
        name: "board", usage: "board | board list | board use NAME",
        summary:
            "the board: pins and audio device; the shipped boards (the one the HAT names marked); choose one (the box restarts)",
        arguments: ["list", "use"],
        doors: .byArguments { action, door in
            switch action {
            case .board, .boardList: nil
            case .chooseBoard:
                door == .page ? nil : "a board is chosen on the box's page or at the box: delaybox board NAME"
            default: NetworkDoorPolicy.notDeclared
            }
        }
    ) { words in
        let arguments = words.arguments
        switch (arguments.count, words.first) {
        case (0, _): return words.request(.board)
        case (1, "list"): return words.request(.boardList)
        case (2, "use"):
            guard isBoardName(arguments[1]) else {
                return .failure(
                    ConsoleError(
                        "'\(arguments[1])' is not a board's name (board list names them): usage: \(words.usage)"))
            }
            return words.request(.chooseBoard(arguments[1]))
        default: return words.usageError
        }
    }

    /// Whether `text` may name a shipped board config (its file name without `.yaml`):
    /// lowercase letters, digits and `-`, at most 64 — never a path, which root's helper
    /// would otherwise read from the service's words.
    static func isBoardName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && !text.hasPrefix("-")
            && text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
