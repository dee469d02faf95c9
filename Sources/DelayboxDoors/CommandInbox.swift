import DelayboxCommands
import DelayboxControls
import Synchronization

/// Where a control's own thread (the front panel's, the remote's) leaves the commands it
/// decoded, for the playout thread to take before its next period.
final class CommandInbox: Sendable {
    private let commands = Mutex<[Command]>([])

    /// From the control's thread.
    func post(_ timed: [TimedCommand]) {
        guard !timed.isEmpty else { return }
        commands.withLock { $0.append(contentsOf: timed.map(\.command)) }
    }

    /// The commands posted since the last call.
    func drain() -> [Command] {
        commands.withLock { commands in
            defer { commands.removeAll(keepingCapacity: true) }
            return commands
        }
    }
}
