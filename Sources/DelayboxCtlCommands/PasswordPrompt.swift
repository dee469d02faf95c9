import ArgumentParser

#if canImport(Glibc)
    import Glibc
#endif

/// A new web password, never from a command line (so never in `ps` or a shell's history):
/// `delayboxctl web password` and `delaybox web-password` read it here.
public enum PasswordPrompt {
    /// The password from the terminal (twice, no echo) or from standard input.
    public static func read() throws -> String {
        guard isatty(0) == 1 else {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("no password on standard input")
            }
            return line
        }
        guard let first = getpass("New web password: ").map({ String(cString: $0) }),
            let second = getpass("Again: ").map({ String(cString: $0) })
        else { throw ValidationError("no terminal to read a password from") }
        guard first == second else { throw ValidationError("the two passwords differ") }
        return first
    }
}
