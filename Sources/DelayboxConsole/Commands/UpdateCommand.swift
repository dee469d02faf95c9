import DelayboxCommands

extension ConsoleCommand {
    /// `update [later] [VERSION] | update check | update daily [on|off] | update --canary BOX
    /// [--now]`: now, or at the box's next quiet moment (`later`: the page's "Install at the
    /// next pause"); a look alone; the nightly look on or off — switched on the page or at
    /// the box, never by MQTT (which reads it in the status); a group's topic carries an
    /// update in stages to every box of the venue.
    static let update = ConsoleCommand(
        name: "update",
        usage: "update [later] [VERSION] | update check | update daily [on|off] | update --canary BOX [--now]",
        summary:
            "update Delaybox from the box's apt sources (checked, rolled back if it does not play), now or at the next pause; look only; nightly looks on or off; a group in stages, BOX first",
        arguments: ["--canary", "check", "later", "daily"],
        doors: DoorPolicy(
            network: { action, door in
                guard door == .mqtt, case .dailyUpdates(_?) = action else { return nil }
                return "daily updates are switched on or off on the box's page or at its console; MQTT reads them "
                    + "(status: daily_updates)"
            },
            group: { action in
                if case .stagedUpdate = action { true } else { false }
            })
    ) { words in
        let arguments = words.arguments
        switch (arguments.count, words.first) {
        case (0, _): return words.request(.update(version: nil))
        case (1, "check"): return words.request(.updateCheck)
        case (1, "daily"): return words.request(.dailyUpdates(nil))
        case (2, "daily") where ["on", "off"].contains(arguments[1].lowercased()):
            return words.request(.dailyUpdates(arguments[1].lowercased() == "on"))
        case (1, "later"): return words.request(.update(version: nil, later: true))
        case (2, "later"):
            return version(arguments[1], words: words).flatMap { words.request(.update(version: $0, later: true)) }
        case (1, let first) where first != "--canary":
            return version(arguments[0], words: words).flatMap { words.request(.update(version: $0)) }
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

    /// `text` as a release's version, or the console's words for why it is not one.
    private static func version(_ text: String, words: ConsoleWords) -> Result<String, ConsoleError> {
        guard PackageVersion.isValid(text) else {
            return .failure(
                ConsoleError("'\(text)' is not a release's version (e.g. 1.4.0-1~deb13): usage: \(words.usage)"))
        }
        return .success(text)
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
