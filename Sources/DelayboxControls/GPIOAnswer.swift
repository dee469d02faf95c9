/// What `gpio --json` answers: each front-panel line, its level and edges seen
/// (`InputLineView`). A Codable answer (`JSONValue`).
public struct GPIOAnswer: Codable, Equatable, Sendable {
    public struct Line: Codable, Equatable, Sendable {
        public var name: String
        public var line: Int
        public var edges: Int
        /// The line's level, when read.
        public var high: Bool?
        /// Whether the control is pressed, when known.
        public var pressed: Bool?
    }

    public var lines: [Line]

    public init(_ view: InputLineView) {
        lines = view.lines.map {
            Line(name: $0.name, line: $0.line, edges: $0.edges, high: $0.high, pressed: $0.active)
        }
    }
}
