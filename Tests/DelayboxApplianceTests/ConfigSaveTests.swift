import DelayboxPlatform
import DelayboxTestSupport
import Foundation
import Testing

@testable import DelayboxApp

/// `config save` lays the console's changes over the saved config as it is: what the owner
/// saved before stays, and a saved config that no longer reads (edited by hand, a torn
/// card) is refused with its line — never replaced by the changes alone.
@Suite(.timeLimit(.minutes(10))) struct ConfigSaveTests {
    @Test func aSaveKeepsWhatWasSavedAndRefusesAFileThatNoLongerReads() throws {
        let box = try VirtualAppliance(board: FactoryResetTests.board)
        let path = box.directory.appendingPathComponent("config.yaml").path
        try box.run(seconds: 1)
        try "mqtt:\n  broker: \"mqtt://hub.example:1883\"\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try box.console("config set defaults.delay_step 250 ms").contains("result: ok"))
        #expect(try box.console("config save").contains("saved: \(path)"))
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.contains("\"broker\": \"mqtt://hub.example:1883\""), "\(saved)")

        let broken = "mqtt:\n  broker: \"mqtt://hub.example:1883\n  group: [pub\n"
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try box.console("config set defaults.delay_step 500 ms").contains("result: ok"))
        let answer = try box.console("config save")
        #expect(answer.hasPrefix("error:") && answer.contains("\(path):"), "\(answer)")
        #expect(answer.contains("nothing changed"), "\(answer)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == broken)
    }
}
