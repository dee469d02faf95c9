import DelayboxSystem
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A program started with posix_spawn and reaped by pid, apart from Foundation's
/// `Process`, for programs that close the descriptors they inherit. Foundation learns that
/// a child ended when the child's end of a descriptor it shares closes, then waits for it
/// with a blocking `wait4` on its one monitoring thread: `systemd-socket-activate` closes
/// every inherited descriptor as it starts, so that thread blocked until the daemon ended,
/// and every other `Process` of the test run (the curl the test waited on) was never seen
/// to end — CI7 here hung for 20 minutes, past the suite's time limit, which cannot stop a
/// test blocked in a system call.
public final class SpawnedProcess: @unchecked Sendable {
    // @unchecked: `pid` is set once; `stop` is for the owner's thread.
    public let pid: pid_t
    private var reaped = false

    /// Starts `arguments[0]` (a path) with stdin and stdout from /dev/null and stderr to
    /// `stderrFile` (appended).
    public init(_ arguments: [String], stderrFile: URL) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, stderrFile.path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child = pid_t(0)
        let status = posix_spawn(&child, arguments[0], &actions, nil, &argv, environ)
        guard status == 0 else {
            throw ExternalTool.Failed(description: "posix_spawn \(arguments[0]): \(Errno(status))")
        }
        pid = child
    }

    deinit { stop() }

    /// Whether it still runs (reaps it if it ended).
    public var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return !reaped
    }

    /// SIGTERM, up to 5 s to end, then SIGKILL; reaped.
    public func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        if !Eventually.holds(within: 5, { !isRunning }) {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
            reaped = true
        }
    }
}
