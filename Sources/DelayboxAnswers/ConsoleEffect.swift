import DelayboxConfig
import DelayboxConsole

/// What a console request asks of the playout beyond its reply, said by `ConsoleAnswers`
/// and carried out by `Playout` — values handed over, not flags the playout polls.
public enum ConsoleEffect: Equatable, Sendable {
    /// `config set`, `channel add|remove`: the config in force edited and checked, with its
    /// document: the playout takes it over (it answers the wake-up's next request from it).
    case configEdited(BoardConfig, document: ConfigNode)
    /// A file written off the playout thread (a slow disk's fsync would starve the output);
    /// the request's reply waits for the outcome (`ConsoleAnswers.fileWritten`).
    case write(FileWrite)
    /// `factory reset`: the listener's settings, what the console saved, the page's password
    /// and the delay journal removed (off the playout thread), then the box restarted as new;
    /// the reply waits for the removal (`ConsoleAnswers.factoryResetDone`). `forgetWiFi`:
    /// the networks it joined are forgotten too.
    case factoryReset(forgetWiFi: Bool)
    /// `backup`: the settings taken, the copies listed, a backup restored or the last change
    /// undone, off the playout thread (files read and written, a config checked); the reply
    /// waits for the outcome (`ConsoleAnswers.backupDone`). A restore or an undo that is
    /// done restarts the box on what it wrote.
    /// `door`: the network door it came through (a restore from it sets only what the door
    /// may: `NetworkDoorPolicy.restoreRefusal`); nil: the box's own.
    case backup(BackupJob, door: NetworkDoorPolicy.Door?)
    /// `venue hub|add|join|leave`: root's venue helper asked and the box's MQTT settings
    /// saved, off the playout thread; the reply waits (`ConsoleAnswers.venueDone`).
    case venue(VenueJob)
    /// `tone on|off`: the test tone instead of the programme, or the programme again.
    case tone(on: Bool)
}
