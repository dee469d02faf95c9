import DelayboxConfig
import DelayboxJSON
import DelayboxTestSupport
import Foundation
import Testing

/// Codable answers written as the box's JSON always was (`JSONText`), and read back by
/// Foundation's decoder into the same type.
@Suite(.timeLimit(.minutes(10))) struct JSONValueTests {
    struct Inner: Codable, Equatable {
        var name: String
        var line: UInt8
    }

    struct Answer: Codable, Equatable {
        var zeta: String
        var count: Int64
        var ratio: Double
        var whole: Double
        var flag: Bool
        var missing: String?
        var present: Int?
        var names: [String]
        var lines: [Inner]
    }

    static let answer = Answer(
        zeta: "quote \" backslash \\ newline \n tab \t bell \u{7} é", count: -12_345_678_901, ratio: 0.1,
        whole: 2, flag: true, missing: nil, present: 7, names: ["Home", "Away"],
        lines: [Inner(name: "play", line: 17), Inner(name: "next", line: 27)])

    @Test func aCodableAnswerIsWrittenAsTheSameFieldsInADictionaryWere() {
        let dictionary: [String: Any] = [
            "zeta": Self.answer.zeta, "count": Self.answer.count, "ratio": 0.1, "whole": 2.0, "flag": true,
            "present": 7, "names": ["Home", "Away"],
            "lines": [["name": "play", "line": UInt8(17)], ["name": "next", "line": UInt8(27)]],
        ]
        let written = JSONText.encode(answer: Self.answer)
        #expect(written == DictionaryJSON.encode(dictionary))
        #expect(written.hasPrefix(#"{"count":-12345678901,"flag":true,"lines":[{"line":17,"name":"play"}"#))
        #expect(written.contains(#""whole":2,"#) && written.contains(#""ratio":0.1,"#), "\(written)")
        #expect(!written.contains("missing"), "an absent optional is left out")
    }

    @Test func theSameTypeReadsItBack() throws {
        let decoded = try JSONDecoder().decode(Answer.self, from: Data(JSONText.encode(answer: Self.answer).utf8))
        #expect(decoded == Self.answer)
    }

    @Test func membersKeepTheirDeclarationOrderForTheConsolesText() {
        let keys = JSONValue(encoding: Self.answer).members.map(\.key)
        #expect(keys == ["zeta", "count", "ratio", "whole", "flag", "present", "names", "lines"])
        let value = JSONValue(encoding: Self.answer)
        #expect(value.members.first { $0.key == "whole" }?.value.text == "2.0", "as Swift prints a Double")
        #expect(value.members.first { $0.key == "names" }?.value.text == "Home, Away")
    }

    @Test func aNumberJSONCannotHoldIsNull() {
        struct Odd: Encodable { var value = Double.nan }
        #expect(JSONText.encode(answer: Odd()) == #"{"value":null}"#)
    }

    /// The state file and a simulation's report: sorted keys, a member a line, read back
    /// by Foundation's decoder as the same value.
    @Test func prettyTextIsIndentedSortedAndReadsBack() throws {
        struct Nested: Codable, Equatable {
            var firedErrorMs: Double? = 1.5
            var atS = 2
            var presets: [Int: Int64] = [3: 30_000]
            var names = ["a"]
            var none: [Int] = []
        }
        let text = JSONText.pretty(JSONValue(encoding: Nested()))
        #expect(
            text == """
                {
                  "atS" : 2,
                  "firedErrorMs" : 1.5,
                  "names" : [
                    "a"
                  ],
                  "none" : [],
                  "presets" : {
                    "3" : 30000
                  }
                }
                """)
        #expect(try JSONDecoder().decode(Nested.self, from: Data(text.utf8)) == Nested())
        let snake = JSONText.encode(JSONValue(encoding: Nested()).renamingKeys(JSONValue.snakeCased))
        #expect(snake.contains(#""fired_error_ms":1.5"#) && snake.contains(#""at_s":2"#), "\(snake)")
    }
}
