extension ConsoleCommand {
    /// `factory reset [--forget-wifi]`: the box as it came, its owner's word. The page asks
    /// it through its own form, with the password typed again and the word RESET (a phone
    /// left logged in is not enough); MQTT never.
    static let factory = ConsoleCommand(
        name: "factory", usage: "factory reset [--forget-wifi]",
        summary:
            "back to the factory's settings: delay, volume, presets, saved config and the page's password gone, the box restarts (Wi-Fi kept unless --forget-wifi)",
        arguments: ["reset", "--forget-wifi"],
        doors: .boxOnly(
            page: "the page resets the box in its own form (Box → Factory reset), with its password",
            mqtt: "a factory reset is the owner's: at the box, or on its page with the password")
    ) { words in
        switch words.arguments.map({ $0.lowercased() }) {
        case ["reset"]: return words.request(.factoryReset(forgetWiFi: false))
        case ["reset", "--forget-wifi"]: return words.request(.factoryReset(forgetWiFi: true))
        default: return words.usageError
        }
    }
}
