/// A command payload as a console line: UTF-8 text, one line, not too long. The console's
/// own language then checks it as it checks a typed line.
public enum MQTTCommandLine {
    /// Longest payload taken (bytes): a console line is far shorter.
    public static let maximumBytes = 256

    /// Commands a group may give: what every screen of a venue should agree on, and an
    /// update in stages (`update --canary BOX`; never all boxes at once).
    public static let groupCommands: Set<String> = ["delay", "channel", "update"]

    /// The line, or why the payload is not one.
    public static func parse(_ payload: [UInt8], group: Bool = false) -> Result<String, Refusal> {
        guard payload.count <= maximumBytes else {
            return .failure(Refusal("the payload is \(payload.count) bytes; a command is at most \(maximumBytes)"))
        }
        guard let text = String(validating: payload, as: UTF8.self) else {
            return .failure(Refusal("the payload is not UTF-8 text"))
        }
        let line = text.trimmingWhitespace()
        guard !line.isEmpty else {
            return .failure(
                Refusal("the payload is empty: send a console line (delay 45, volume -5, channel next, pause)"))
        }
        guard !line.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            return .failure(Refusal("the payload holds control characters: send one console line"))
        }
        let words = line.split(separator: " ")
        if group, let word = words.first, !groupCommands.contains(word.lowercased()) {
            return .failure(Refusal("a group command is delay, channel or update --canary BOX, not '\(word)'"))
        }
        if group, words.first?.lowercased() == "update", words.dropFirst().first != "--canary" {
            return .failure(
                Refusal(
                    "a group updates in stages: update --canary BOX (BOX first, the others once it plays the new release)"
                ))
        }
        return .success(line)
    }

    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

extension String {
    func trimmingWhitespace() -> String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }
}
