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
public final class SpawnedProcess: RunningProgram, @unchecked Sendable {
    // @unchecked: `pid` is set once; the rest is for the owner's thread.
    public let pid: pid_t
    /// `waitpid`'s status once it has been reaped.
    private var reaped: Int32?

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

    deinit { kill() }

    public var identifier: Int32 { pid }

    /// Whether it still runs (reaps it if it ended).
    public var isRunning: Bool {
        guard reaped == nil else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = status }
        return reaped == nil
    }

    public var terminationStatus: Int32 {
        guard let status = reaped else { return 0 }
        // WIFSIGNALED / WTERMSIG / WEXITSTATUS, which Swift does not import (macros).
        return diedOfSignal ? status & 0x7f : (status >> 8) & 0xff
    }

    public var diedOfSignal: Bool {
        guard let status = reaped else { return false }
        return status & 0x7f != 0 && status & 0x7f != 0x7f
    }

    public func signal(_ signal: Int32) {
        guard isRunning else { return }
        Glibc.kill(pid, signal)
    }

    @discardableResult
    public func waitUntilExit() -> Int32 {
        if reaped == nil {
            var status: Int32 = 0
            while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
            reaped = status
        }
        return terminationStatus
    }

    public func kill() {
        guard isRunning else { return }
        Glibc.kill(pid, SIGKILL)
        waitUntilExit()
    }
}
