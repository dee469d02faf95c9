import ArgumentParser
import DelayboxApp
import DelayboxCtlCommands
import DelayboxFiles
import FoundationEssentials

/// `delaybox web-password`: the page's password written straight beside the state file,
/// with no service running — how `deploy/install.sh --web-password` sets it before the
/// new release starts, so that its page never opens a first-password window.
struct WebPasswordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "web-password",
        abstract: "Set the web page's password beside the state file (asked twice, or one line on stdin).",
        discussion: """
            Run as the service's user (runuser -u delaybox --) so the file is its own. A running \
            box: delayboxctl web password. See docs/web.md.
            """)

    @Option(help: "The state file; the password's hash goes beside it (web-password).")
    var state = "/var/lib/delaybox/state.json"

    func run() throws {
        let password = try PasswordPrompt.read()
        if let problem = WebPasswordFile.set(password, besideState: state) {
            throw ValidationError(problem)
        }
        print("the web page's password is set")
    }
}
