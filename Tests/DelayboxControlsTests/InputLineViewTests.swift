import DelayboxConfig
import DelayboxControls
import DelayboxJSON
import DelayboxTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct InputLineViewTests {
    static let gpio = GPIOSettings(
        chip: "gpiochip0",
        buttons: [ButtonSettings(name: "play", line: 17), ButtonSettings(name: "mute", line: 27, activeLow: false)],
        encoder: EncoderSettings(a: 5, b: 6, push: 13), leds: [])

    @Test func everyConfiguredInputWithItsLevelMeaningAndEdges() {
        let view = InputLineView(
            gpio: Self.gpio, levels: [17: false, 27: false, 5: true, 13: true], edges: [17: 4, 5: 1])
        #expect(
            view.text == """
                play  GPIO17  low  pressed  4 edges
                mute  GPIO27  low  released  0 edges
                encoder A  GPIO5  high  1 edge
                encoder B  GPIO6  ?  0 edges
                encoder push  GPIO13  high  released  0 edges
                """)
        #expect(view.lines[3].high == nil && view.lines[3].active == nil, "a level not seen yet is unknown")
    }

    /// `gpio --json`: each line's name, number, edges, and its level and meaning where known.
    @Test func theJSONAnswerIsEachLineWithWhatIsKnownOfIt() {
        let view = InputLineView(gpio: Self.gpio, levels: [17: false, 5: true], edges: [17: 4])
        let expected: [String: Any] = [
            "lines": [
                ["name": "play", "line": 17, "edges": 4, "high": false, "pressed": true],
                ["name": "mute", "line": 27, "edges": 0],
                ["name": "encoder A", "line": 5, "edges": 0, "high": true],
                ["name": "encoder B", "line": 6, "edges": 0],
                ["name": "encoder push", "line": 13, "edges": 0],
            ]
        ]
        #expect(JSONText.encode(answer: GPIOAnswer(view)) == DictionaryJSON.encode(expected))
    }
}
