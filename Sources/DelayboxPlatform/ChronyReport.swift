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
        let outcome = ChildProcess.run(program, arguments + ["-m", "tracking", "sources", "sourcestats"])
        return (outcome.text, outcome.status)
    }
}
