import ArgumentParser
import DelayboxApp
import DelayboxCtlCommands
import FoundationEssentials

@main
struct Delaybox: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delaybox",
        abstract: "Plays a live audio stream delayed to match the TV picture.",
        discussion: """
            Delaybox records a live stream (a club's commentary) into a delay buffer of
            minutes and plays it out at the delay set with the knob, so the commentary
            matches the TV picture. See README.md and docs/.
            """,
        version: DelayboxVersion.string,
        subcommands: [
            RunCommand.self, PlayCommand.self, SimulateCommand.self, CheckConfigCommand.self, BoardsCommand.self,
            WebPasswordCommand.self, BoardCommand.self, WiFiHelperCommand.self, VenueHelperCommand.self,
            WiFiKeyfileCommand.self,
            ImagerCloudInitCommand.self,
        ],
        defaultSubcommand: nil)

    /// With `DELAYBOX_PARSE_ONLY` set, parses the command line and stops: how `make test`
    /// checks that every command line the docs show is one this program takes. Called as
    /// `delayboxctl` (the package's link to this program), it is that program: one static
    /// Swift runtime on the board instead of two (14 MB).
    static func main() {
        if CommandLine.arguments.first?.split(separator: "/").last == "delayboxctl" { return DelayboxCtlProgram.main() }
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard ProcessInfo.processInfo.environment["DELAYBOX_PARSE_ONLY"] != nil else { return main(arguments) }
        do { _ = try parseAsRoot(arguments) } catch { exit(withError: error) }
    }
}
