extension ConsoleCommand {
    /// `backup | backup list | backup undo`: the box's settings as one file to keep, the
    /// copies the box kept of itself, and the last change undone. The page downloads the
    /// file and restores one in its own form (Box → Backup); MQTT never: the file holds the
    /// box's channels and settings, which are its owner's.
    static let backup = ConsoleCommand(
        name: "backup", usage: "backup | backup list | backup undo",
        summary:
            "the settings as one file (JSON: delay, volume, presets, channel, saved config without passwords), the copies kept after each change, or the last change undone (the box restarts)",
        arguments: ["list", "undo"],
        doors: .pageOnly(elsewhere: "a backup is the owner's: on the box's page (Box → Backup) or at its console")
    ) { words in
        switch (words.arguments.count, words.first) {
        case (0, _): return words.request(.backup(.take()))
        case (1, "list"): return words.request(.backup(.list))
        case (1, "undo"): return words.request(.backup(.undo))
        default: return words.usageError
        }
    }
}
