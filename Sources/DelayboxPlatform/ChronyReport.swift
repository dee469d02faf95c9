#if canImport(Glibc)
    import Glibc
#endif

/// What chrony says of the system clock (`chronyc -c -n -m tracking sources sourcestats`):
/// the commands chronyd answers any local user over UDP, so the service's own user may ask.
/// `DELAYBOX_CHRONY_PORT` names another command port (the tests' own chronyd).
public enum ChronyReport {
    /// Where Debian's chrony puts its client.
    static let program = "/usr/bin/chronyc"

    /// chronyc's output and exit status; nil status: chrony is not installed.
    public static func read() -> (output: String, status: Int32?) {
        guard access(program, X_OK) == 0 else { return ("chrony is not installed", nil) }
        var arguments = ["-c", "-n"]
        if let port = getenv("DELAYBOX_CHRONY_PORT").map({ String(cString: $0) }) {
            arguments += ["-h", "127.0.0.1", "-p", port]
        }
        // A chronyd that does not answer (stopped, swamped) would hold chronyc 7 s by its
        // defaults, and the caller's thread with it: 0.75 s at most (measured).
        let commands = ["timeout 250", "retries 1", "tracking", "sources", "sourcestats"]
        let outcome = ChildProcess.run(program, arguments + ["-m"] + commands)
        return (outcome.text, outcome.status)
    }
}
