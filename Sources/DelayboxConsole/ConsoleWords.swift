/// What followed a command's name on a console line, for the command to read.
public struct ConsoleWords: Sendable {
    /// The words after the name, `--json` taken out.
    let arguments: [String]
    /// Whether `--json` was among them.
    let json: Bool
    /// The line after the name exactly as typed, without its end of line; nil when the line
    /// does not begin with the name (`--json status`). For a last argument that is the rest
    /// of the line — a password, where spaces count.
    let rest: Substring?
    /// The command's usage, for `usageError`.
    let usage: String

    /// The first argument, lowercased.
    var first: String? { arguments.first?.lowercased() }

    /// A request for `action`, in JSON when `--json` was typed.
    func request(_ action: ConsoleRequest.Action) -> Result<ConsoleRequest, ConsoleError> {
        .success(ConsoleRequest(action, json: json))
    }

    /// The command's usage, as the refusal of words it does not take.
    var usageError: Result<ConsoleRequest, ConsoleError> { .failure(ConsoleError("usage: \(usage)")) }

    /// What follows `words` (any case, each a whole word) at the start of `rest`, as typed;
    /// nil when it does not begin with them.
    func rest(after words: [String]) -> Substring? {
        rest.flatMap { ConsoleLanguage.rest(of: String($0), after: words) }
    }
}
