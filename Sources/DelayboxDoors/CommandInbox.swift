import DelayboxCommands
import DelayboxControls
import Synchronization

/// Where a control's own thread (the front panel's, the remote's) leaves the commands it
/// decoded, for the playout thread to take at once: posting wakes it (issue 44: a detent
/// waited up to a playout interval, 80 ms, before its click was even asked for).
final class CommandInbox: Sendable {
    private let commands = Mutex<[TimedCommand]>([])
    private let ring: @Sendable () -> Void

    /// - Parameter ring: wakes the playout thread.
    init(ring: @escaping @Sendable () -> Void) { self.ring = ring }

    /// From the control's thread.
    func post(_ timed: [TimedCommand]) {
        guard !timed.isEmpty else { return }
        commands.withLock { $0.append(contentsOf: timed) }
        ring()
    }

    /// The commands posted since the last call, with when their control was touched.
    func drain() -> [TimedCommand] {
        commands.withLock { commands in
            defer { commands.removeAll(keepingCapacity: true) }
            return commands
        }
    }
}
