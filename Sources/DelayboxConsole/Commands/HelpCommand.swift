extension ConsoleCommand {
    /// `help [COMMAND]`: for the console; the page and MQTT have their documents.
    static let help = ConsoleCommand(
        name: "help", usage: "help [COMMAND]", summary: "list the commands, or explain one",
        doors: .boxOnly(
            page: "help is for the console; docs/console.md lists the commands",
            mqtt: "help is for the console; docs/mqtt.md lists the commands")
    ) { words in
        switch words.arguments.count {
        case 0: words.request(.help(topic: nil))
        case 1: words.request(.help(topic: words.first))
        default: words.usageError
        }
    }
}
