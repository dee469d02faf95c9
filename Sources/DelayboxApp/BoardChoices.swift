import DelayboxConfig
import FoundationEssentials

/// The boards a box may be given (`delaybox board`, the console's `board list` and
/// `board use`, the page): the shipped board configs that load, by name, and what the HAT
/// says it is (its EEPROM's product, which the Pi's firmware puts in the device tree) with
/// the boards made for that HAT.
public struct BoardChoices: Sendable {
    public struct Board: Sendable {
        /// The file's name without `.yaml`: what `delaybox board NAME` takes.
        public var name: String
        public var config: BoardConfig

        /// Made for a Raspberry Pi (`pi3-…`, `pi4-…`, `pizero2w-…`), not a development board
        /// (`simulated-host`, `virtual-board`): what the page may offer its owner.
        public var isForPi: Bool { name.hasPrefix("pi") }
    }

    /// Where the HAT's EEPROM names its product on a Pi; `DELAYBOX_HAT_PRODUCT` names
    /// another file (a test's).
    public static var hatProductPath: String {
        ProcessInfo.processInfo.environment["DELAYBOX_HAT_PRODUCT"] ?? "/proc/device-tree/hat/product"
    }

    /// The shipped board configs' directory (nil: none found).
    public var directory: String?
    public var boards: [Board] = []
    /// What the HAT's EEPROM says it is (NULs dropped); nil when no HAT names itself.
    public var hatProduct: String?

    /// The HAT that product is, when the box knows it.
    public var hat: AudioHAT? { hatProduct.flatMap(AudioHAT.named(byEEPROM:)) }

    /// The boards made for the HAT that names itself, by name.
    public var proposed: [String] {
        guard let hat else { return [] }
        return boards.filter { $0.config.hat == hat }.map(\.name)
    }

    /// The shipped boards and the HAT's word, read now (the files change only with a
    /// release, which restarts the box).
    public static func read(hatProduct path: String = hatProductPath) -> BoardChoices {
        var choices = BoardChoices(directory: BoardCatalog.directory)
        if let directory = choices.directory {
            choices.boards = BoardCatalog.boards(in: directory).compactMap { file, config, _ in
                config.map { Board(name: String(file.dropLast(".yaml".count)), config: $0) }
            }
        }
        let product = (try? String(contentsOfFile: path, encoding: .utf8)).map {
            String($0.filter { $0 != "\0" && !$0.isNewline })
        }
        choices.hatProduct = product?.isEmpty == false ? product : nil
        return choices
    }
}
