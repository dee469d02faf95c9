import DelayboxCommands

extension ConsoleCommand {
    /// `update | update VERSION | update --canary BOX [--now]`: a group's topic carries an
    /// update in stages to every box of the venue.
    static let update = ConsoleCommand(
        name: "update", usage: "update | update VERSION | update --canary BOX [--now]",
        summary:
            "update Delaybox from the box's apt sources (checked, rolled back if it does not play); a group in stages, BOX first",
        arguments: ["--canary"],
        doors: .venue { action in
            if case .stagedUpdate = action { true } else { false }
        }
    ) { words in
        let arguments = words.arguments
        switch (arguments.count, words.first) {
        case (0, _): return words.request(.update(version: nil))
        case (1, let first) where first != "--canary":
            guard PackageVersion.isValid(arguments[0]) else {
                return .failure(
                    ConsoleError(
                        "'\(arguments[0])' is not a release's version (e.g. 1.4.0-1~deb13): usage: \(words.usage)"))
            }
            return words.request(.update(version: arguments[0]))
        case (2...3, "--canary"):
            guard isBoxName(arguments[1]) else {
                return .failure(
                    ConsoleError("'\(arguments[1])' is not a box's MQTT client id (letters, digits, . _ -, at most 64)")
                )
            }
            guard arguments.count == 2 || arguments[2] == "--now" else { return words.usageError }
            return words.request(.stagedUpdate(canary: arguments[1], now: arguments.count == 3))
        default: return words.usageError
        }
    }

    /// A box's MQTT client id as a canary is named (one topic level: no wildcard, no `/`).
    static func isBoxName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64
            && text.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
    }
}
