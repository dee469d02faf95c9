import DelayboxAnswers
import DelayboxConfig
import DelayboxConfigFile
import FoundationEssentials

/// The shipped board configs: found beside the source tree in a development checkout,
/// or where the package installs them.
public enum BoardCatalog {
    /// Where `delaybox boards` looks, first match wins.
    public static var directories: [String] {
        var candidates: [String] = []
        if let override = ProcessInfo.processInfo.environment["DELAYBOX_BOARD_CONFIGS"] { candidates.append(override) }
        // .build/<config>/delaybox → the checkout's board-configs/.
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(
            executable.deletingLastPathComponent().appendingPathComponent("../../../board-configs").standardizedFileURL
                .path)
        candidates.append("/usr/share/delaybox/board-configs")
        return candidates
    }

    public static var directory: String? {
        directories.first { FileManager.default.fileExists(atPath: $0) }
    }

    /// Every board file in `directory` (bases, which name no board, left out), by file name.
    public static func boards(in directory: String) -> [(
        file: String, config: BoardConfig?, diagnostics: [ConfigDiagnostic]
    )] {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter {
            $0.hasSuffix(".yaml")
        }.sorted()
        return files.compactMap { file in
            let path = directory + "/" + file
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                text.contains("\nboard:") || text.hasPrefix("board:")
            else {
                return nil
            }
            let loaded = ConfigFile.load(path)
            return (file, loaded.config, loaded.diagnostics)
        }
    }

    /// Where the HAT's EEPROM names its product on a Pi; `DELAYBOX_HAT_PRODUCT` names
    /// another file (a test's).
    public static var hatProductPath: String {
        ProcessInfo.processInfo.environment["DELAYBOX_HAT_PRODUCT"] ?? "/proc/device-tree/hat/product"
    }

    /// The shipped boards and the HAT's word, read now (the files change only with a
    /// release, which restarts the box).
    public static func choices(hatProduct path: String = hatProductPath) -> BoardChoices {
        var choices = BoardChoices(directory: directory)
        if let directory = choices.directory {
            choices.boards = boards(in: directory).compactMap { file, config, _ in
                config.map { BoardChoices.Board(name: String(file.dropLast(".yaml".count)), config: $0) }
            }
        }
        let product = (try? String(contentsOfFile: path, encoding: .utf8)).map {
            String($0.filter { $0 != "\0" && !$0.isNewline })
        }
        choices.hatProduct = product?.isEmpty == false ? product : nil
        return choices
    }
}
