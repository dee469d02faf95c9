/// What a console request asks of the playout beyond its reply, said by `ConsoleAnswers`
/// and carried out by `Playout` — values handed over, not flags the playout polls.
public enum ConsoleEffect: Equatable, Sendable {
    /// `config set`, `channel add|remove`: `ConsoleAnswers.config` (and its document) was
    /// edited and checked: the playout takes it over as the config in force.
    case configEdited
    /// A file written off the playout thread (a slow disk's fsync would starve the output);
    /// the request's reply waits for the outcome (`ConsoleAnswers.fileWritten`).
    case write(FileWrite)
    /// `tone on|off`: the test tone instead of the programme, or the programme again.
    case tone(on: Bool)
}
