import ArgumentParser
import DelayboxApp
import DelayboxConfig
import DelayboxConfigFile
import DelayboxFiles
import DelayboxPlatform
import FoundationEssentials

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

    @Option(
        name: .customLong("ram-mb"),
        help: "The board's memory (MB) the channels' buffers must fit (default: this machine's).")
    var ramMB: Int?

    @Flag(
        name: .customLong("print-keymap"),
        help:
            "Print only the remote's receiver and keymap file ('gpio_ir_recv /usr/share/delaybox/rc_keymaps/car-mp3.toml'), nothing without one: what the package's keymap loader reads."
    )
    var printKeymap = false

    @Flag(
        name: .customLong("print-update-window"),
        help:
            "Print only the update window ('04:00-05:00', or 'none'): what root's release-check waits for at most."
    )
    var printUpdateWindow = false

    func run() throws {
        if let site, !FileManager.default.fileExists(atPath: site) {
            throw ValidationError("the site file \(site) does not exist")
        }
        let result = ConfigFile.load(file, site: site)
        for diagnostic in result.diagnostics {
            StandardStream.error.write(diagnostic.description + "\n")
        }
        guard let config = result.config else { throw ExitCode(1) }
        if printUpdateWindow {
            print(config.updateWindow)
            return
        }
        if printKeymap {
            if let remote = config.remote, let keymap = remote.keymapPath { print("\(remote.device) \(keymap)") }
            return
        }
        if let ramMB, ramMB < 64 || ramMB > 1_048_576 {
            throw ValidationError("--ram-mb must be 64 to 1048576; got \(ramMB)")
        }
        if let ram = ramMB.map({ Int64($0) * 1_048_576 }) ?? SystemMemory.totalBytes(),
            let problem = ChannelMemory.problem(config, ramBytes: ram)
        {
            StandardStream.error.write("\(file): error: \(problem)\n")
            throw ExitCode(1)
        }
        let gpio =
            config.gpio.map {
                "\($0.buttons.count) buttons, \($0.encoder == nil ? "no" : "an") encoder, \($0.leds.count) LEDs"
            } ?? "no GPIO"
        let remote = config.remote.map { "; remote '\($0.device)' (\($0.keys.count) keys)" } ?? ""
        print(
            "\(file): OK: \(config.name); audio \(config.audio.device); \(gpio)\(remote); \(config.channels.channels.count) channel(s)"
        )
        if !config.configTxt.isEmpty {
            print("the board's /boot/firmware/config.txt needs:")
            for line in config.configTxt { print("  " + line) }
        }
    }
}

struct BoardsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "boards",
        abstract: "List the shipped board configs.")

    func run() throws {
        guard let directory = BoardCatalog.directory else {
            throw ValidationError(
                "no board-configs directory found (looked in \(BoardCatalog.directories.joined(separator: ", ")))")
        }
        // The name column is what `deploy/install.sh --board NAME` takes.
        let rows = BoardCatalog.boards(in: directory).map { board -> [String] in
            let name = board.config?.name ?? "INVALID: " + (board.diagnostics.first?.message ?? "")
            var audio = ""
            if let config = board.config {
                audio = config.audio.device + (config.audio.mixer.map { " (mixer \($0))" } ?? " (software volume)")
            }
            return [String(board.file.dropLast(".yaml".count)), name, audio]
        }
        let widths = (0..<2).map { column in rows.map { $0[column].count }.max() ?? 0 }
        for row in rows {
            func padded(_ text: String, _ width: Int) -> String {
                text + String(repeating: " ", count: max(0, width - text.count))
            }
            print(padded(row[0], widths[0] + 2) + padded(row[1], widths[1] + 2) + row[2])
        }
        print("(\(directory))")
    }
}
