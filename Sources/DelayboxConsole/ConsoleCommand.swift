/// One console command, whole: its name, usage and help line, how its words are read into a
/// request, and which network doors may carry that request. `doors` has no default: a
/// command cannot be declared without saying what the page, MQTT and a venue group's topic
/// may ask of it (issue 69). Each command is one file in `Commands/`; `ConsoleLanguage.all`
/// lists them in the order `help` shows.
public struct ConsoleCommand: Sendable {
    public let name: String
    public let usage: String
    public let summary: String
    /// Words that may follow the name, for completion.
    let arguments: [String]
    /// Without arguments, a report: answered by its name (`ConsoleRequest.Action.report`),
    /// changing nothing.
    let report: Bool
    /// Which network doors may carry what it asks.
    let doors: DoorPolicy
    /// The request its words ask for, or why they ask for none.
    private let read: @Sendable (ConsoleWords) -> Result<ConsoleRequest, ConsoleError>

    init(
        name: String, usage: String, summary: String, arguments: [String] = [], doors: DoorPolicy,
        read: @escaping @Sendable (ConsoleWords) -> Result<ConsoleRequest, ConsoleError>
    ) {
        self.init(name, usage, summary, arguments, report: false, doors, read)
    }

    private init(
        _ name: String, _ usage: String, _ summary: String, _ arguments: [String], report: Bool, _ doors: DoorPolicy,
        _ read: @escaping @Sendable (ConsoleWords) -> Result<ConsoleRequest, ConsoleError>
    ) {
        (self.name, self.usage, self.summary, self.arguments, self.report) = (name, usage, summary, arguments, report)
        (self.doors, self.read) = (doors, read)
    }

    /// A report: its name alone, answered by `ConsoleAnswers.reports`, changing nothing.
    static func report(name: String, summary: String, doors: DoorPolicy) -> ConsoleCommand {
        ConsoleCommand(name, name, summary, [], report: true, doors) { words in
            words.arguments.isEmpty ? words.request(.report(name)) : words.usageError
        }
    }

    /// The request `words` (what followed the name) ask for, marked as this command's, so
    /// that a network door asks this command's policy about it.
    func request(_ words: ConsoleWords) -> Result<ConsoleRequest, ConsoleError> {
        read(words).map { request in
            var request = request
            request.command = name
            return request
        }
    }
}
