import DelayboxConfig
import Testing

@testable import DelayboxConfigFile

/// The YAML reader on libyaml: what a board file may hold, where each node is, and what
/// it says about text it refuses.
@Suite(.timeLimit(.minutes(10))) struct YAMLReaderTests {
    func read(_ text: String) throws -> ConfigNode? { try YAMLReader.read(text, file: "t.yaml") }

    @Test func nodesKeepTheirTextAndPlace() throws {
        let root = try #require(
            try read("# a comment\nboard:\n  name: \"Pi 4\"\n  keys: [a, 'b c']\n  gpio: {line: 17}\n"))
        #expect(root.lookup("board.name").node?.summary == "Pi 4")
        let keys = try #require(root.lookup("board.keys").node)
        #expect(keys.summary == "[2 items]" && keys.location.line == 4 && keys.location.column == 9)
        #expect(root.lookup("board.keys.1").node?.summary == "b c")
        let line = try #require(root.lookup("board.gpio.line").node)
        #expect(line.summary == "17" && line.location.line == 5 && line.location.column == 16)
    }

    @Test func anAliasIsTheNodeItsAnchorNames() throws {
        let root = try #require(try read("base: &pins {line: 5}\nother: *pins\n"))
        #expect(root.lookup("other.line").node?.summary == "5")
        #expect(throws: YAMLReader.Failure.self) { try read("other: *nowhere\n") }
    }

    @Test func emptyTextHoldsNoDocument() throws {
        #expect(try read("") == nil)
        #expect(try read("# only a comment\n") == nil)
    }

    @Test func refusedTextSaysWhereAndWhy() {
        func failure(_ text: String) -> YAMLReader.Failure? {
            do { _ = try read(text); return nil } catch let failure as YAMLReader.Failure { return failure } catch {
                return nil
            }
        }
        let unclosed = failure("a: [1, 2\nb: 3\n")
        #expect(
            unclosed?.problem.hasPrefix("YAML: ") == true && unclosed?.problem.contains("flow sequence") == true,
            "\(String(describing: unclosed))")
        let twice = failure("a: 1\nb: 2\na: 3\n")
        #expect(twice?.problem == "'a' is written twice in one mapping" && twice?.line == 3 && twice?.column == 1)
        let second = failure("a: 1\n---\nb: 2\n")
        #expect(
            second?.problem.contains("second document") == true && second?.line == 2, "\(String(describing: second))")
        let complexKey = failure("? [a, b]\n: 1\n")
        #expect(complexKey?.problem == "a key must be plain text" && complexKey?.line == 1)
    }
}
