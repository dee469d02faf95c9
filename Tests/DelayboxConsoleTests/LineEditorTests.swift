import DelayboxConsole
import DelayboxSimulation
import Testing

@Suite(.timeLimit(.minutes(10))) struct LineEditorTests {
    static let left = "\u{1B}[D", right = "\u{1B}[C", up = "\u{1B}[A", down = "\u{1B}[B"

    func type(_ editor: inout LineEditor, _ text: String) -> LineEditor.Output { editor.feed(Array(text.utf8)) }

    @Test func crLfAndCrlfEachEndOneLine() {
        var editor = LineEditor()
        let output = type(&editor, "status\rdelay 45\r\nvolume\n")
        #expect(output.lines == ["status", "delay 45", "volume"])
    }

    @Test func editingInTheMiddleOfTheLine() {
        var editor = LineEditor()
        var lines = type(&editor, "dely 45" + Self.left + Self.left + Self.left + Self.left + "a\r").lines
        #expect(lines == ["delay 45"])
        lines = type(&editor, "volume 5x\u{7F}0\u{8}5\r").lines
        #expect(lines == ["volume 55"], "both backspace codes")
        lines = type(&editor, "45\u{1}delay \u{5}!\r").lines
        #expect(lines == ["delay 45!"], "Ctrl-A, Ctrl-E")
        lines = type(&editor, "garbage\u{15}status\r").lines
        #expect(lines == ["status"], "Ctrl-U")
        lines = type(&editor, "delay forty five\u{17}\u{17}45\r").lines
        #expect(lines == ["delay 45"], "Ctrl-W")
        lines = type(&editor, "oops\u{3}stats\r").lines
        #expect(lines == ["stats"], "Ctrl-C drops the line")
        lines = type(&editor, "abc" + Self.left + Self.left + "\u{1B}[3~\r").lines
        #expect(lines == ["ac"], "Delete")
    }

    @Test func historyGoesBackAndReturnsToTheDraft() {
        var editor = LineEditor()
        _ = type(&editor, "status\rdelay 45\r")
        _ = type(&editor, "vol")
        _ = type(&editor, Self.up)
        #expect(editor.currentLine == "delay 45")
        _ = type(&editor, Self.up)
        #expect(editor.currentLine == "status")
        let bell = type(&editor, Self.up)
        #expect(bell.screen.contains(7) && editor.currentLine == "status", "the oldest entry rings")
        _ = type(&editor, Self.down + Self.down)
        #expect(editor.currentLine == "vol", "back to what was being typed")
    }

    @Test func aPasswordTypedIsNotKeptInTheHistory() {
        var editor = LineEditor()
        let lines = type(&editor, "status\rweb password hunter2 hunter2\r").lines
        #expect(lines == ["status", "web password hunter2 hunter2"])
        _ = type(&editor, Self.up)
        #expect(editor.currentLine == "status", "the password line was not kept")
        // A Wi-Fi's password neither: the network's or the hotspot's own.
        for line in ["wifi join Clubhouse lounge-2026", "WIFI hotspot password lounge-2026"] {
            _ = type(&editor, Self.down + "status\r" + line + "\r" + Self.up)
            #expect(editor.currentLine == "status", "\(line) was kept")
        }
    }

    @Test func tabCompletesOneCandidateAndListsSeveral() {
        var editor = LineEditor(completer: { before in
            before.contains(" ") ? ["live", "list"] : ["status", "stats", "delay"]
        })
        _ = type(&editor, "de\t")
        #expect(editor.currentLine == "delay ")
        _ = type(&editor, "l\t")
        #expect(editor.currentLine == "delay li", "the common prefix of live and list")
        _ = type(&editor, "\u{15}sta\t")
        let listed = type(&editor, "\t")
        #expect(String(decoding: listed.screen, as: UTF8.self).contains("status  stats"))
    }

    @Test func invalidUTF8UnknownKeysAndLongLinesAreRefusedWithAMessage() {
        var editor = LineEditor(maxLength: 10)
        var output = editor.feed([0x61, 0xFF, 0x62, 0xC3, 0x41, 0x0D])
        #expect(output.lines == ["abA"])
        #expect(
            output.messages.count == 2 && output.messages.allSatisfy { $0.hasPrefix("invalid UTF-8 ignored") },
            "\(output.messages)")
        output = type(&editor, "Café ⚽\r")
        #expect(output.lines == ["Café ⚽"] && output.messages.isEmpty)
        output = type(&editor, "\u{1B}[15~x\r")
        #expect(output.lines == ["x"] && output.messages == ["unknown key ignored: ESC [15~"])
        output = type(&editor, "\u{1B}[" + String(repeating: "1", count: 500) + "\r")
        #expect(
            output.messages.contains { $0.hasPrefix("unknown key ignored") }, "an endless escape sequence is cut off")
        output = type(&editor, "\r0123456789abc\r")
        #expect(output.lines.last == "0123456789")
        #expect(output.messages.contains("line longer than 10 characters: the rest is ignored"))
    }

    @Test func aLogLineIsPrintedAboveTheLineBeingTyped() {
        var editor = LineEditor()
        _ = type(&editor, "delay 4")
        let screen = String(decoding: editor.printAbove("state: buffering -> playing"), as: UTF8.self)
        #expect(screen == "\r\u{1B}[Kstate: buffering -> playing\r\ndelaybox> delay 4")
    }

    @Test func aDumbTerminalNeverGetsAnEscapeSequence() {
        var editor = LineEditor(ansi: false, completer: { _ in ["status", "stats"] })
        var screen: [UInt8] = []
        for text in ["delay 45", Self.left, "\u{7F}", "\u{1}x", "\t", "sta\t", Self.up, "\r"] {
            screen += type(&editor, text).screen
        }
        screen += editor.printAbove("a log line")
        #expect(!screen.contains(0x1B))
    }

    /// 100 000 random byte strings and lines: no crash, no hang, and every line it hands
    /// out is within the limit and valid text.
    @Test func garbageNeverBreaksIt() {
        var random = SplitMix64(seed: 77)
        var editor = LineEditor(maxLength: 64, completer: { _ in ["status", "stats"] })
        var lines = 0
        for round in 0..<100_000 {
            let length = Int.random(in: 1...24, using: &random)
            let bytes: [UInt8] =
                round % 2 == 0
                ? (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
                : Array(
                    (0..<length).map { _ in
                        ["a", "z", " ", "\u{1B}", "[", "A", "\r", "\t", "\u{7F}", "é", "\n", "3", "~", "O"]
                            .randomElement(using: &random)!
                    }.joined().utf8)
            let output = editor.feed(bytes)
            lines += output.lines.count
            #expect(output.lines.allSatisfy { $0.count <= 64 })
        }
        #expect(lines > 10_000, "lines kept coming out: \(lines)")
    }
}
