import DelayboxConfig
import DelayboxConfigFile
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct RecordedChannelConfigTests {
    let boards = BoardConfigTests()

    @Test func aChannelMayBeRecordedInTheBackground() throws {
        let directory = try boards.directory([
            "board.yaml": BoardConfigTests.minimal
                + "  - name: Away\n    url: http://radio.example/away.mp3\n    record: yes\n"
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = ConfigFile.load(directory.appendingPathComponent("board.yaml").path)
        let config = try #require(result.config, "\(result.diagnostics)")
        #expect(config.channels.channels.map(\.record) == [false, true], "off unless asked for")
        let wrong = try boards.diagnostics(BoardConfigTests.minimal + "    record: sometimes\n")
        #expect(wrong.contains { $0.contains("'channels[0].record' must be true or false") }, "\(wrong)")
    }
}
