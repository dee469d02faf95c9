import ArgumentParser
import DelayboxAnswers
import DelayboxApp
import DelayboxConfig
import DelayboxConfigFile
import DelayboxFiles
import DelayboxPlatform
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// `delaybox board [NAME]`: chooses the board on the box itself (docs/deploy.md). Without
/// NAME it proposes the board a HAT names itself as (its EEPROM); with NAME it writes
/// `/etc/delaybox/board.yaml` extending the shipped file by its absolute path, checks it
/// as the service will read it, and adds the board's `config.txt` lines to the boot
/// configuration — asked first (or `--yes`), in a block of its own, a reboot said.
struct BoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Choose this box's board config (and its config.txt lines); without NAME, propose one.",
        discussion: """
            Writes CONFIG-DIR/board.yaml as 'extends: /usr/share/delaybox/board-configs/NAME.yaml'. \
            'delaybox boards' lists the names. Then: sudo systemctl restart delaybox.
            """)

    @Argument(help: "The board config's name (delaybox boards); none: propose one from the HAT's EEPROM.")
    var name: String?

    @Option(name: .customLong("config-dir"), help: "Where board.yaml goes.")
    var configDirectory = "/etc/delaybox"

    @Option(name: .customLong("boot-config"), help: "The Pi's boot configuration the board's lines go into.")
    var bootConfig = "/boot/firmware/config.txt"

    @Option(name: .customLong("hat-product"), help: "Where the HAT's EEPROM names its product.")
    var hatProduct = BoardCatalog.hatProductPath

    @Flag(help: "Add the config.txt lines without asking.")
    var yes = false

    func run() throws {
        let choices = BoardCatalog.choices(hatProduct: hatProduct)
        guard let directory = choices.directory else {
            throw ValidationError(
                "no board-configs directory (looked in \(BoardCatalog.directories.joined(separator: ", ")))")
        }
        guard let name else { return propose(choices) }
        guard let chosen = choices.boards.first(where: { $0.name == name }) else {
            throw ValidationError(
                "no board config '\(name)'; there are: \(choices.boards.map(\.name).joined(separator: ", "))")
        }
        try writeBoardFile(extending: directory + "/" + name + ".yaml")
        print("\(configDirectory)/board.yaml: \(chosen.config.name)")
        try addBootLines(chosen.config.configTxt)
        print("then: sudo systemctl restart delaybox")
    }

    /// Names the board a HAT's EEPROM says it is, or says there is none.
    private func propose(_ choices: BoardChoices) {
        guard let product = choices.hatProduct else {
            print("no HAT names itself on this board: choose with delaybox board NAME (delaybox boards lists them)")
            return
        }
        guard let hat = choices.hat else {
            print("the HAT says it is '\(product)', which no shipped board config is for: delaybox boards lists them")
            return
        }
        print(
            "the HAT says it is '\(product)' (\(hat.rawValue)): "
                + choices.proposed.map { "delaybox board \($0)" }.joined(separator: " or "))
    }

    /// board.yaml extending `shipped` by its absolute path (the shipped files extend
    /// `base.yaml` beside them, which a copy in /etc would not find), checked before it
    /// replaces the one there.
    private func writeBoardFile(extending shipped: String) throws {
        let path = configDirectory + "/board.yaml"
        try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true)
        let text =
            "# Written by `delaybox board`: this box's board, the shipped file by its name.\nextends: \(shipped)\n"
        let fresh = path + ".new"
        try Data(text.utf8).write(to: URL(fileURLWithPath: fresh))
        let loaded = ConfigFile.load(fresh)
        guard loaded.config != nil else {
            try? FileManager.default.removeItem(atPath: fresh)
            throw ValidationError(loaded.diagnostics.map(\.description).joined(separator: "\n"))
        }
        guard rename(fresh, path) == 0 else {
            throw ValidationError("cannot write \(path): \(ErrorText.system(errno))")
        }
    }

    /// The board's config.txt lines into the boot configuration: asked first, in a block
    /// of its own; a reboot said when it changed.
    private func addBootLines(_ lines: [String]) throws {
        guard !lines.isEmpty else { return }
        guard let text = try? String(contentsOfFile: bootConfig, encoding: .utf8) else {
            print(
                "no \(bootConfig) here: the board needs these lines in its config.txt:\n  "
                    + lines.joined(separator: "\n  "))
            return
        }
        let block = BootConfigBlock.apply(lines, to: text)
        guard block.changed else {
            print("\(bootConfig) has the board's lines")
            return
        }
        print("\(bootConfig) needs:\n  " + (block.added.isEmpty ? lines : block.added).joined(separator: "\n  "))
        guard yes || ask("Add them (a copy of the file stays as \(bootConfig).before-delaybox)? [y/N] ") else {
            print("left as it is: add them by hand, or run again with --yes")
            return
        }
        try? FileManager.default.removeItem(atPath: bootConfig + ".before-delaybox")
        try FileManager.default.copyItem(atPath: bootConfig, toPath: bootConfig + ".before-delaybox")
        try Data(block.text.utf8).write(to: URL(fileURLWithPath: bootConfig), options: .atomic)
        print("\(bootConfig) changed: reboot for the board's sound card and pins (sudo reboot)")
    }

    private func ask(_ question: String) -> Bool {
        guard isatty(0) == 1 else { return false }
        print(question, terminator: "")
        fflush(nil)
        return readLine()?.lowercased().hasPrefix("y") ?? false
    }
}
