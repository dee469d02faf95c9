import ArgumentParser
import DelayboxApp
import DelayboxConfig
import DelayboxConfigFile
import Foundation

struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a board config (and the site file over it); exit status 1 on any error.",
        discussion: """
            Problems are printed as FILE:LINE:COLUMN: error|warning: MESSAGE. See docs/board-config.md.
            """)

    @Argument(help: "The board config file.")
    var file: String

    @Option(name: .long, help: "A site file laid over the board file (e.g. /etc/delaybox/delaybox.conf).")
    var site: String?

    func run() throws {
        if let site, !FileManager.default.fileExists(atPath: site) {
            throw ValidationError("the site file \(site) does not exist")
        }
        let result = ConfigFile.load(file, site: site)
        for diagnostic in result.diagnostics {
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        }
        guard let config = result.config else { throw ExitCode(1) }
        let gpio = config.gpio.map { "\($0.buttons.count) buttons, \($0.encoder == nil ? "no" : "an") encoder, \($0.leds.count) LEDs" } ?? "no GPIO"
        print("\(file): OK: \(config.name); audio \(config.audio.device); \(gpio); \(config.channels.channels.count) channel(s)")
    }
}

struct BoardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boards",
        abstract: "List the shipped board configs.")

    func run() throws {
        guard let directory = BoardCatalog.directory else {
            throw ValidationError("no board-configs directory found (looked in \(BoardCatalog.directories.joined(separator: ", ")))")
        }
        for board in BoardCatalog.boards(in: directory) {
            let name = board.config?.name ?? "INVALID: " + (board.diagnostics.first?.message ?? "")
            let audio = board.config.map { "\($0.audio.device)" + ($0.audio.mixer.map { " (mixer \($0))" } ?? " (software volume)") } ?? ""
            print(board.file.padding(toLength: 28, withPad: " ", startingAt: 0) + name.padding(toLength: 36, withPad: " ", startingAt: 0) + audio)
        }
        print("(\(directory))")
    }
}
