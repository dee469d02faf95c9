import Testing

@testable import DelayboxService

/// The log's lines are the box's own: a stranger's text quoted in a message (a stream
/// title, an MQTT payload, a playlist entry) cannot start a line of its own — under
/// systemd, one with a priority of its choosing — nor drive the reader's terminal.
@Suite(.timeLimit(.minutes(10))) struct JournalLogTests {
    @Test func controlCharactersInAMessageAreWrittenOutNotObeyed() {
        #expect(
            JournalLog.oneLine("title 'a\n<0>delaybox: forged emergency'")
                == "title 'a\\n<0>delaybox: forged emergency'")
        #expect(JournalLog.oneLine("x\r\ty\u{1B}[2J\u{7F}\u{85}z") == "x\\r\\ty\\u{1b}[2J\\u{7f}\\u{85}z")
        #expect(
            JournalLog.oneLine("Müller's ♪ commentary") == "Müller's ♪ commentary",
            "printable text, any script, as it is")
        JournalLog(journal: true).write(level: .warning, label: "delaybox.test", message: "refused 'x\n<0>forged'")
        let recent = JournalLog.recent.withLock { $0 }
        #expect(recent.contains("warning delaybox.test: refused 'x\\n<0>forged'"), "\(recent.suffix(3))")
    }
}
