/// Where a text stops being JSON (RFC 8259): the line and column of the first byte that
/// cannot continue it, and what was expected there — what a person fixing a file by hand
/// needs, and what the decoder's "not valid JSON" leaves out. A checker only: it builds
/// nothing, and its nesting is bounded (`maxDepth`), so a hostile file costs one pass.
public struct JSONSyntax: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based.
    public var line: Int
    /// 1-based, in bytes.
    public var column: Int
    public var problem: String

    public var description: String { "line \(line), column \(column): \(problem)" }

    /// Deeper nesting is refused (the box's files are a few levels deep).
    public static let maxDepth = 64

    /// The first syntax error in `text`; nil when it is one JSON value.
    public static func firstError(in text: String) -> JSONSyntax? {
        var scanner = Scanner(bytes: Array(text.utf8))
        do throws(JSONSyntax) {
            scanner.skipSpace()
            try scanner.value(depth: 0)
            scanner.skipSpace()
            if scanner.index < scanner.bytes.count { throw scanner.error("more after the end of the value") }
            return nil
        } catch {
            return error
        }
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        func error(_ problem: String) -> JSONSyntax {
            var (line, column) = (1, 1)
            for byte in bytes[..<min(index, bytes.count)] {
                if byte == UInt8(ascii: "\n") { (line, column) = (line + 1, 1) } else { column += 1 }
            }
            return JSONSyntax(
                line: line, column: column, problem: index >= bytes.count ? "the text ends early" : problem)
        }

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(JSONSyntax) {
            guard current == byte else { throw error("expected \(what)") }
            index += 1
        }

        mutating func value(depth: Int) throws(JSONSyntax) {
            guard depth < JSONSyntax.maxDepth else { throw error("nested more than \(JSONSyntax.maxDepth) deep") }
            switch current {
            case UInt8(ascii: "{"): try members(depth: depth)
            case UInt8(ascii: "["): try items(depth: depth)
            case UInt8(ascii: "\""): try string()
            case UInt8(ascii: "t"): try word("true")
            case UInt8(ascii: "f"): try word("false")
            case UInt8(ascii: "n"): try word("null")
            case .some(let byte) where byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte): try number()
            default: throw error("expected a value")
            }
        }

        mutating func members(depth: Int) throws(JSONSyntax) {
            index += 1
            skipSpace()
            if current == UInt8(ascii: "}") { index += 1; return }
            while true {
                skipSpace()
                guard current == UInt8(ascii: "\"") else { throw error("expected a member's name in quotes") }
                try string()
                skipSpace()
                try expect(UInt8(ascii: ":"), "':' after a member's name")
                skipSpace()
                try value(depth: depth + 1)
                skipSpace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                return
            }
        }

        mutating func items(depth: Int) throws(JSONSyntax) {
            index += 1
            skipSpace()
            if current == UInt8(ascii: "]") { index += 1; return }
            while true {
                skipSpace()
                try value(depth: depth + 1)
                skipSpace()
                if current == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                return
            }
        }

        mutating func string() throws(JSONSyntax) {
            index += 1
            while let byte = current {
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    return
                case UInt8(ascii: "\\"):
                    index += 1
                    guard let escaped = current, Array("\"\\/bfnrtu".utf8).contains(escaped) else {
                        throw error("an unknown escape in a string")
                    }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let digit = current, digit.isHexDigit else {
                                throw error("\\u needs four hex digits")
                            }
                            index += 1
                        }
                    }
                case 0..<0x20: throw error("a control character in a string (a line break must be \\n)")
                default: index += 1
                }
            }
            throw error("a string not closed")
        }

        mutating func word(_ word: String) throws(JSONSyntax) {
            for byte in word.utf8 {
                guard current == byte else { throw error("expected \(word)") }
                index += 1
            }
        }

        mutating func number() throws(JSONSyntax) {
            if current == UInt8(ascii: "-") { index += 1 }
            // A leading zero stands alone (`01` is no JSON number).
            if current == UInt8(ascii: "0") { index += 1 } else if !digits() { throw error("expected a digit") }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() else { throw error("expected a digit after '.'") }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() else { throw error("expected an exponent's digits") }
            }
        }

        /// Skips digits; true when there was one.
        mutating func digits() -> Bool {
            let start = index
            while let byte = current, (0x30...0x39).contains(byte) { index += 1 }
            return index > start
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
