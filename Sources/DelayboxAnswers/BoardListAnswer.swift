/// What `board list` answers: the shipped boards, the one playing and what the HAT says.
/// A Codable answer (`JSONValue`); the console's text lists a board per line.
public struct BoardListAnswer: Codable, Equatable, Sendable {
    public struct Board: Codable, Equatable, Sendable {
        /// What `board use` takes.
        public var name: String
        /// The config's own title (`board:`).
        public var title: String
        /// The HAT it is for (`none`: the Pi's own jack, or a host).
        public var hat: String

        public init(name: String, title: String, hat: String) {
            self.name = name
            self.title = title
            self.hat = hat
        }
    }

    public var boards: [Board]
    /// The title of the board this box runs.
    public var current: String
    /// What the HAT's EEPROM says it is, when it says.
    public var hatSays: String?
    /// The boards made for that HAT: what the box proposes.
    public var proposed: [String]

    enum CodingKeys: String, CodingKey {
        case boards, current
        case hatSays = "hat_says"
        case proposed
    }

    public init(boards: [Board], current: String, hatSays: String? = nil, proposed: [String]) {
        self.boards = boards
        self.current = current
        self.hatSays = hatSays
        self.proposed = proposed
    }
}
