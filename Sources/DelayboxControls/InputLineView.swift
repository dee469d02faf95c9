import DelayboxConfig

/// The console's `gpio`: every input line the board config names, its level now and
/// how many edges it has seen — what a maintainer checks when a button "does nothing"
/// (no edges: wiring or the wrong line; edges but no action: the config).
public struct InputLineView: Sendable, Equatable {
    public struct Line: Sendable, Equatable {
        /// `play` (a button), `encoder A`, `encoder push`.
        public var name: String
        /// BCM line number.
        public var line: Int
        /// The electrical level; nil before it is known.
        public var high: Bool?
        /// Whether the level means pressed (buttons and the push switch); nil for the
        /// encoder's quadrature lines.
        public var active: Bool?
        public var edges: Int
    }

    public var lines: [Line]

    /// The inputs of `gpio` with the levels and edge counts the panel has seen.
    public init(gpio: GPIOSettings, levels: [Int: Bool], edges: [Int: Int]) {
        func line(_ name: String, _ number: Int, activeLow: Bool?) -> Line {
            let high = levels[number]
            let active = activeLow.flatMap { low in high.map { $0 != low } }
            return Line(name: name, line: number, high: high, active: active, edges: edges[number] ?? 0)
        }
        lines = gpio.buttons.map { line($0.name, $0.line, activeLow: $0.activeLow) }
        if let encoder = gpio.encoder {
            lines.append(line("encoder A", encoder.a, activeLow: nil))
            lines.append(line("encoder B", encoder.b, activeLow: nil))
            // The push switch pulls its line low like a button with the default wiring.
            if let push = encoder.push { lines.append(line("encoder push", push, activeLow: true)) }
        }
    }

    /// One line per input: `play  GPIO17  high  released  3 edges`.
    public var text: String {
        lines.map { line in
            let level = line.high.map { $0 ? "high" : "low" } ?? "?"
            let meaning = line.active.map { $0 ? "pressed" : "released" } ?? ""
            return [line.name, "GPIO\(line.line)", level, meaning, "\(line.edges) edge\(line.edges == 1 ? "" : "s")"]
                .filter { !$0.isEmpty }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
