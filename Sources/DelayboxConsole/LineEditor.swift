/// The console's line editor, byte in, screen bytes out, for whatever sits at the other
/// end of a serial line: picocom, minicom, screen, or a dumb terminal.
///
/// Keys: printable text (UTF-8), left/right, Home/End (and Ctrl-A/Ctrl-E), Delete,
/// backspace (0x7F and 0x08), Ctrl-U (kill to start), Ctrl-W (kill word), Ctrl-C (drop
/// the line), up/down (history), Tab (completion). CR, LF and CRLF end a line. Invalid
/// UTF-8, escape sequences it does not know and lines over the limit are refused with a
/// bell and a message, never a crash or a hang: an escape sequence is bounded, and a byte
/// sequence either completes or is dropped.
///
/// With `ansi` false (a dumb terminal) it never sends an escape sequence: editing is at
/// the end of the line only, and a redraw reprints the line.
public struct LineEditor: Sendable {
    public struct Output: Sendable, Equatable {
        /// Bytes for the terminal: echo, redraws, bells.
        public var screen: [UInt8] = []
        /// Lines the user finished, in order.
        public var lines: [String] = []
        /// Complaints to show above the prompt (invalid bytes, unknown keys, too long).
        public var messages: [String] = []
    }

    public let prompt: String
    public let ansi: Bool
    /// Longest line accepted, in characters.
    public let maxLength: Int
    /// Candidates for the word under the cursor, given the line up to the cursor.
    public var completer: @Sendable (String) -> [String]

    private var line: [Character] = []
    private var cursor = 0
    private var history: [String] = []
    private var historyIndex: Int?
    private var draft: [Character] = []
    private var utf8: [UInt8] = []
    private var escape: [UInt8]?
    private var lastWasCR = false
    static let maxHistory = 100
    static let maxEscapeLength = 16

    public init(
        prompt: String = "delaybox> ", ansi: Bool = true, maxLength: Int = 256,
        completer: @escaping @Sendable (String) -> [String] = { _ in [] }
    ) {
        self.prompt = prompt
        self.ansi = ansi
        self.maxLength = maxLength
        self.completer = completer
    }

    /// The prompt and the line being edited, as a fresh screen line shows them.
    public func promptBytes() -> [UInt8] { Array((prompt + String(line)).utf8) + moveLeft(line.count - cursor) }

    public var currentLine: String { String(line) }

    /// Feeds bytes from the terminal.
    public mutating func feed<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Output {
        var output = Output()
        for byte in bytes { take(byte, into: &output) }
        return output
    }

    /// A log line printed while the user types: the line being edited is cleared, the text
    /// printed above, and the prompt and line redrawn, so neither garbles the other.
    public func printAbove(_ text: String) -> [UInt8] {
        let clear: [UInt8] = ansi ? Array("\r\u{1B}[K".utf8) : Array("\r\n".utf8)
        return clear + Array(text.utf8) + Array("\r\n".utf8) + promptBytes()
    }

    private mutating func take(_ byte: UInt8, into output: inout Output) {
        if var sequence = escape {
            sequence.append(byte)
            escape = sequence
            finishEscapeIfComplete(sequence, into: &output)
            return
        }
        if !utf8.isEmpty || byte >= 0x80 {
            takeUTF8(byte, into: &output)
            return
        }
        let wasCR = lastWasCR
        lastWasCR = false
        switch byte {
        case 0x0D: lastWasCR = true; submit(into: &output)
        case 0x0A: if !wasCR { submit(into: &output) }
        case 0x1B: escape = [byte]
        case 0x7F, 0x08: backspace(into: &output)
        case 0x01: cursor = 0; redraw(into: &output)
        case 0x05: cursor = line.count; redraw(into: &output)
        case 0x15: line.removeSubrange(0..<cursor); cursor = 0; redraw(into: &output)
        case 0x17: killWord(into: &output)
        case 0x03:
            output.screen += Array("^C\r\n".utf8)
            line = []; cursor = 0; historyIndex = nil
            output.screen += promptBytes()
        case 0x09: complete(into: &output)
        case 0x20...0x7E: insert(Character(Unicode.Scalar(byte)), into: &output)
        default: bell(into: &output)  // other control characters
        }
    }

    private mutating func takeUTF8(_ byte: UInt8, into output: inout Output) {
        utf8.append(byte)
        let expected: Int
        switch utf8[0] {
        case 0xC2...0xDF: expected = 2
        case 0xE0...0xEF: expected = 3
        case 0xF0...0xF4: expected = 4
        default: expected = 0
        }
        if expected == 0 || (utf8.count > 1 && utf8.last! & 0xC0 != 0x80) {
            let bad = utf8
            utf8 = []
            output.messages.append(
                "invalid UTF-8 ignored: " + bad.map { String($0, radix: 16, uppercase: true) }.joined(separator: " "))
            bell(into: &output)
            // A fresh start.
            if bad.count > 1, let last = bad.last, last < 0x80 || last >= 0xC0 { take(last, into: &output) }
            return
        }
        guard utf8.count == expected else { return }
        let bytes = utf8
        utf8 = []
        guard let text = String(validating: bytes, as: UTF8.self), let character = text.first else {
            output.messages.append(
                "invalid UTF-8 ignored: " + bytes.map { String($0, radix: 16, uppercase: true) }.joined(separator: " "))
            bell(into: &output)
            return
        }
        insert(character, into: &output)
    }

    /// ESC [ … final, ESC O x: the keys we know move the cursor or the history; others
    /// are reported and dropped.
    private mutating func finishEscapeIfComplete(_ sequence: [UInt8], into output: inout Output) {
        guard sequence.count >= 2 else { return }
        let introducer = sequence[1]
        let complete: Bool
        if introducer == UInt8(ascii: "[") {
            complete = sequence.count >= 3 && (0x40...0x7E).contains(sequence.last!)
        } else if introducer == UInt8(ascii: "O") {
            complete = sequence.count >= 3
        } else {
            complete = true  // ESC + one byte (Alt-key)
        }
        guard complete || sequence.count >= Self.maxEscapeLength else { return }
        escape = nil
        switch String(decoding: sequence.dropFirst(), as: UTF8.self) {
        case "[A", "OA": recallHistory(step: -1, into: &output)
        case "[B", "OB": recallHistory(step: 1, into: &output)
        case "[C", "OC": if cursor < line.count { cursor += 1; redraw(into: &output) }
        case "[D", "OD": if cursor > 0 { cursor -= 1; redraw(into: &output) }
        case "[H", "OH", "[1~", "[7~": cursor = 0; redraw(into: &output)
        case "[F", "OF", "[4~", "[8~": cursor = line.count; redraw(into: &output)
        case "[3~": if cursor < line.count { line.remove(at: cursor); redraw(into: &output) }
        default:
            output.messages.append(
                "unknown key ignored: ESC "
                    + String(
                        decoding: sequence.dropFirst().map { $0 < 0x20 || $0 > 0x7E ? UInt8(ascii: "?") : $0 },
                        as: UTF8.self))
            bell(into: &output)
        }
    }

    private mutating func insert(_ character: Character, into output: inout Output) {
        guard line.count < maxLength else {
            output.messages.append("line longer than \(maxLength) characters: the rest is ignored")
            bell(into: &output)
            return
        }
        line.insert(character, at: cursor)
        cursor += 1
        if cursor == line.count || !ansi {
            output.screen += Array(String(character).utf8)
        } else {
            redraw(into: &output)
        }
    }

    private mutating func backspace(into output: inout Output) {
        guard cursor > 0 else { return bell(into: &output) }
        line.remove(at: cursor - 1)
        cursor -= 1
        if ansi { redraw(into: &output) } else { output.screen += Array("\u{8} \u{8}".utf8) }
    }

    private mutating func killWord(into output: inout Output) {
        var start = cursor
        while start > 0, line[start - 1] == " " { start -= 1 }
        while start > 0, line[start - 1] != " " { start -= 1 }
        line.removeSubrange(start..<cursor)
        cursor = start
        redraw(into: &output)
    }

    private mutating func submit(into output: inout Output) {
        let text = String(line)
        output.screen += Array("\r\n".utf8)
        output.lines.append(text)
        // A password typed is not kept for the next person at the console to scroll back to.
        if !text.trimmingSpaces().isEmpty, history.last != text, !ConsoleLanguage.typesPassword(text) {
            history.append(text)
            if history.count > Self.maxHistory { history.removeFirst() }
        }
        line = []
        cursor = 0
        historyIndex = nil
    }

    private mutating func recallHistory(step: Int, into output: inout Output) {
        guard !history.isEmpty else { return bell(into: &output) }
        let current = historyIndex ?? history.count
        let next = current + step
        guard next >= 0, next <= history.count else { return bell(into: &output) }
        if historyIndex == nil { draft = line }
        historyIndex = next == history.count ? nil : next
        line = next == history.count ? draft : Array(history[next])
        cursor = line.count
        redraw(into: &output)
    }

    /// Tab: one candidate completes the word (and adds a space); several complete their
    /// common prefix and are listed above the prompt.
    private mutating func complete(into output: inout Output) {
        let before = String(line[..<cursor])
        let word = String(before.reversed().prefix { $0 != " " }.reversed())
        let candidates = completer(before).filter { $0.hasPrefix(word) }
        guard !candidates.isEmpty else { return bell(into: &output) }
        let common = candidates.dropFirst().reduce(candidates[0]) { prefix, next in
            String(zip(prefix, next).prefix { $0 == $1 }.map(\.0))
        }
        var addition = Array(common.dropFirst(word.count))
        if candidates.count == 1 { addition.append(" ") }
        for character in addition where line.count < maxLength {
            line.insert(character, at: cursor)
            cursor += 1
        }
        if candidates.count > 1 {
            output.screen += printAbove(candidates.joined(separator: "  "))
        } else {
            redraw(into: &output)
        }
    }

    private func redrawBytes() -> [UInt8] {
        guard ansi else { return Array("\r\n".utf8) + promptBytes() }
        return Array("\r".utf8) + Array((prompt + String(line)).utf8) + Array("\u{1B}[K".utf8)
            + moveLeft(line.count - cursor)
    }

    private mutating func redraw(into output: inout Output) { output.screen += redrawBytes() }

    private func moveLeft(_ count: Int) -> [UInt8] {
        guard ansi, count > 0 else { return [] }
        return Array("\u{1B}[\(count)D".utf8)
    }

    private mutating func bell(into output: inout Output) { output.screen.append(0x07) }
}

extension String {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }
}
