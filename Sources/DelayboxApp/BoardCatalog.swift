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
}
