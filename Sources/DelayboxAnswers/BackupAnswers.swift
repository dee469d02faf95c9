import DelayboxConfig
import DelayboxConsole
import DelayboxUnits

/// What a `backup` errand came to, off the playout thread (`ConsoleEffect.backup`).
public enum BackupOutcome: Sendable, Equatable {
    /// The settings as one file.
    case taken(BoxBackup)
    /// The copies the box keeps, newest first: when each was made (Unix ms) and what it holds.
    case listed([(madeUnixMs: Int64, backup: BoxBackup)])
    /// A backup's files written (or the copy before the last change): the box restarts on
    /// them. `changes`: what differs from the box before; `notes`: what the box could not take.
    case restored(BoxBackup, undo: Bool, changes: [String], notes: [String])
    /// Not done, and why (nothing was changed).
    case failed(ConsoleReply.Kind, String)

    public static func == (left: BackupOutcome, right: BackupOutcome) -> Bool {
        switch (left, right) {
        case (.taken(let a), .taken(let b)): a == b
        case (.listed(let a), .listed(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.madeUnixMs == $1.madeUnixMs && $0.backup == $1.backup }
        case (.restored(let a, let u, let c, let n), .restored(let b, let v, let d, let m)):
            a == b && u == v && c == d && n == m
        case (.failed(let k, let a), .failed(let l, let b)): k == l && a == b
        default: false
        }
    }
}

/// `backup list`: the copies the box keeps and, for each, what changed at it (from the one
/// before); `undo` what `backup undo` would change back, nil when nothing.
public struct BackupListAnswer: Codable, Equatable, Sendable {
    public struct Copy: Codable, Equatable, Sendable {
        public var madeUnixS: Int64
        public var delayMs: Int64
        public var channel: String?
        public var changes: [String]
    }
    public var copies: [Copy]
    public var undo: String?
}

/// A backup restored, or the last change undone: what changed, what could not be taken,
/// and that the box restarts on it.
public struct RestoreAnswer: Codable, Equatable, Sendable {
    public var result = "ok"
    public var restored: String
    public var changes: [String]
    /// What the box could not take as it was; nil: nothing.
    public var notes: [String]?
}

extension ConsoleAnswers {
    /// The reply to `backup …` once its errand is done.
    public func backupDone(_ outcome: BackupOutcome) -> ConsoleReply {
        switch outcome {
        case .taken(let backup):
            return .answer(backup, text: backup.text)
        case .listed(let copies):
            var listed: [BackupListAnswer.Copy] = []
            for (index, copy) in copies.enumerated() {
                let older = copies.indices.contains(index + 1) ? copies[index + 1].backup : nil
                listed.append(
                    .init(
                        madeUnixS: copy.madeUnixMs / 1_000, delayMs: copy.backup.settings.delay.milliseconds,
                        channel: copy.backup.settings.channel,
                        changes: older.map { copy.backup.changes(from: $0) } ?? ["as the box started"]))
            }
            let undo = copies.count > 1 ? copies[1].backup.changes(from: copies[0].backup).joined(separator: ", ") : nil
            let answer = BackupListAnswer(copies: listed, undo: undo)
            let lines = listed.map { copy in
                "\(CivilDate.stamp(unixSeconds: copy.madeUnixS))  \(copy.changes.joined(separator: ", "))"
            }
            return .answer(
                answer,
                text: (lines.isEmpty ? ["no copy kept yet"] : lines).joined(separator: "\n")
                    + (undo.map { "\nbackup undo: \($0)" } ?? "\nnothing to undo"))
        case .restored(let backup, let undo, let changes, let notes):
            let what =
                undo
                ? "the last change undone" : "the backup of \(backup.box) (release \(backup.release))"
            return .answer(
                RestoreAnswer(
                    restored: what + ": the box restarts on it now",
                    changes: changes.isEmpty ? ["nothing an owner chose: the same settings"] : changes,
                    notes: notes.isEmpty ? nil : notes))
        case .failed(let kind, let reason):
            return .refusal(kind, reason)
        }
    }
}
