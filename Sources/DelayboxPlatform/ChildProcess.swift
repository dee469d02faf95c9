import DelayboxSystem
import Glibc

/// Runs a program and collects what it writes: the speech synthesiser, NetworkManager's
/// nmcli. posix_spawn, so nothing of this process but the pipe reaches the child.
public enum ChildProcess {
    /// How a program ended: its exit status (nil: it could not start, or a signal ended it)
    /// and what it wrote.
    public struct Outcome: Sendable {
        public var status: Int32?
        public var output: [UInt8]
        public init(status: Int32?, output: [UInt8]) {
            self.status = status
            self.output = output
        }
        public var text: String { String(decoding: output, as: UTF8.self) }
    }

    /// The program's standard output once it has exited; nil when it cannot be started or
    /// does not exit with status 0. Its standard error goes to /dev/null.
    public static func output(of executable: String, _ arguments: [String]) -> [UInt8]? {
        let outcome = run(executable, arguments, errorsToo: false)
        return outcome.status == 0 ? outcome.output : nil
    }

    /// Runs the program to its end; with `errorsToo` its standard error is collected with its
    /// output (nmcli says what went wrong there), else dropped.
    public static func run(_ executable: String, _ arguments: [String], errorsToo: Bool = true) -> Outcome {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec, so that no other child inherits it (pipe2 is not in Swift's Glibc).
        guard pipe(&ends) == 0 else { return Outcome(status: nil, output: []) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        if errorsToo {
            posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child = pid_t()
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        close(ends[1])
        defer { close(ends[0]) }
        guard spawned == 0 else { return Outcome(status: nil, output: []) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let readEnd = ends[0]
        while let count = try? Errno.retryingInterrupts({ read(readEnd, &chunk, chunk.count) }), count > 0 {
            output += chunk[0..<count]
        }
        var status: Int32 = 0
        _ = try? Errno.retryingInterrupts { waitpid(child, &status, 0) }
        // WIFEXITED and WEXITSTATUS are macros Swift does not import.
        return Outcome(status: status & 0x7f == 0 ? (status >> 8) & 0xff : nil, output: output)
    }
}
