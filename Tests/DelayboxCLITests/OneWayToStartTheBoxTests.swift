import Foundation
import Testing

/// Issue 69: tests start `delaybox run` one way, `BoxUnderTest` — six by-hand ways had each
/// its own board file, socket, log and stop. An argument list of `run` then an option,
/// anywhere else in the tests or their support, is a box started by hand.
@Suite(.timeLimit(.minutes(10))) struct OneWayToStartTheBoxTests {
    /// Where such a line may stand, and why.
    static let allowed: [String: String] = [
        "Sources/DelayboxTestSupport/BoxUnderTest.swift": "the one way",
        "Tests/DelayboxCLITests/CommandLineTests.swift": "a usage error, refused before a box starts",
    ]

    @Test func onlyBoxUnderTestStartsTheBox() throws {
        let root = CommandLineTests.root
        let byHand = try NSRegularExpression(pattern: #""run",\s*"--"#)
        var found: [String] = []
        for folder in ["Tests", "Sources/DelayboxTestSupport"] {
            for file in try ModuleImportsTests.swiftFiles(in: root.appendingPathComponent(folder)) {
                let path = "\(folder)/\(file)"
                let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                let range = NSRange(text.startIndex..., in: text)
                if byHand.firstMatch(in: text, range: range) != nil, Self.allowed[path] == nil { found.append(path) }
            }
        }
        #expect(found.isEmpty, "`delaybox run` started by hand (use BoxUnderTest): \(found)")
    }
}
