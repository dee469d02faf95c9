import DelayboxConfig

/// The boards a box may be given (`delaybox board`, the console's `board list` and
/// `board use`, the page): the shipped board configs that load, by name, and what the HAT
/// says it is (its EEPROM's product, which the Pi's firmware puts in the device tree) with
/// the boards made for that HAT. Read by the root (`BoardCatalog.choices`) before playout begins.
public struct BoardChoices: Sendable {
    public struct Board: Sendable {
        public init(name: String, config: BoardConfig) { (self.name, self.config) = (name, config) }

        /// The file's name without `.yaml`: what `delaybox board NAME` takes.
        public var name: String
        public var config: BoardConfig

        /// Made for a Raspberry Pi (`pi3-…`, `pi4-…`, `pizero2w-…`), not a development board
        /// (`simulated-host`, `virtual-board`): what the page may offer its owner.
        public var isForPi: Bool { name.hasPrefix("pi") }
    }

    /// The shipped board configs' directory (nil: none found).
    public var directory: String?
    public var boards: [Board] = []
    /// What the HAT's EEPROM says it is (NULs dropped); nil when no HAT names itself.
    public var hatProduct: String?

    public init(directory: String? = nil, boards: [Board] = [], hatProduct: String? = nil) {
        (self.directory, self.boards, self.hatProduct) = (directory, boards, hatProduct)
    }

    /// The HAT that product is, when the box knows it.
    public var hat: AudioHAT? { hatProduct.flatMap(AudioHAT.named(byEEPROM:)) }

    /// The boards made for the HAT that names itself, by name.
    public var proposed: [String] {
        guard let hat else { return [] }
        return boards.filter { $0.config.hat == hat }.map(\.name)
    }
}
