import Foundation
import Testing

/// Every suite has a time limit (issue 43): a test that hangs fails with its name in
/// minutes, instead of running until CI is killed. Checked in the test sources: a
/// top-level type of a file with tests is a `@Suite` whose traits hold `.timeLimit(`.
@Suite(.timeLimit(.minutes(10))) struct SuiteTimeLimitsTests {
    @Test func everySuiteHasATimeLimit() throws {
        let tests = CommandLineTests.root.appendingPathComponent("Tests")
        var checked = 0
        for folder in try FileManager.default.contentsOfDirectory(atPath: tests.path) {
            let directory = tests.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            where name.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
                guard text.contains("@Test") else { continue }
                let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                // A type declared at the top level, on its own line or after its attribute.
                let declares = { (line: Substring) in
                    line.hasPrefix("struct ") || line.hasPrefix("final class ")
                        || (line.hasPrefix("@Suite")
                            && (line.contains(" struct ") || line.contains(" final class ")))
                }
                for (index, line) in lines.enumerated() where declares(line) {
                    // The attribute and its traits: the lines above the declaration, up to the `@Suite`.
                    let above = lines[max(0, index - 12)..<index].reversed().prefix {
                        !$0.isEmpty && !$0.hasPrefix("}") && !$0.hasPrefix("///")
                    }
                    let attribute = above.reversed().joined(separator: " ") + " " + line
                    #expect(
                        attribute.contains("@Suite") && attribute.contains(".timeLimit("),
                        "\(folder)/\(name): '\(line)' has no time limit")
                    // A test's limit runs from when it is scheduled, and in the parallel run
                    // it may wait minutes for a thread (a suite of 13 ms tests with one
                    // minute failed after 155 s in a fresh clone's make test).
                    if let minutes = Self.minutes(in: attribute) {
                        #expect(minutes >= 10, "\(folder)/\(name): '\(line)': \(minutes) minutes")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked >= 90, "the suites were found: \(checked)")
    }

    /// N of `.timeLimit(.minutes(N))` in `attribute`, if it says so.
    static func minutes(in attribute: String) -> Int? {
        guard let range = attribute.range(of: #"\.timeLimit\(\.minutes\([0-9]+\)"#, options: .regularExpression)
        else { return nil }
        return Int(attribute[range].dropFirst(".timeLimit(.minutes(".count).dropLast())
    }
}
