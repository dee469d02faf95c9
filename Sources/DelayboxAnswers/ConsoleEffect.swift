/// What a console request asks of the playout beyond its reply, said by `ConsoleAnswers`
/// and carried out by `Playout` — values handed over, not flags the playout polls.
public enum ConsoleEffect: Equatable {
    /// `config set`, `channel add|remove`: `ConsoleAnswers.config` (and its document) was
    /// edited and checked: the playout takes it over as the config in force.
    case configEdited
    /// `config save`: these bytes written to `path` off the playout thread (a slow disk's
    /// fsync would starve the output); the request's reply waits for the outcome
    /// (`ConsoleAnswers.configWritten`).
    case writeConfig(path: String, bytes: [UInt8])
    /// `config save`'s file is written: the files are read again, as on SIGHUP.
    case reload
    /// `tone on|off`: the test tone instead of the programme, or the programme again.
    case tone(on: Bool)
}
