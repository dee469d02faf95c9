import DelayboxConsole
import Testing

@testable import DelayboxApp

/// The console's reports — commands that take no argument and change nothing — answered by
/// name on a whole appliance in virtual time: the language's list and the answers' table
/// are one, and each answers with its own fields, or says it cannot on this board.
@Suite(.timeLimit(.minutes(10))) struct ConsoleReportsTests {
    @Test func everyReportOfTheLanguageHasItsAnswerAndNoOther() {
        #expect(Set(ConsoleLanguage.reports) == Set(ConsoleAnswers.reports.keys))
        #expect(ConsoleLanguage.reports.count == ConsoleAnswers.reports.count, "no name twice")
    }

    @Test func eachReportAnswersOnAWholeBox() throws {
        let box = try VirtualAppliance(board: ApplianceScenarioTests.board())
        try box.run(seconds: 3)
        #expect(try box.console("version").hasPrefix("version: "))
        #expect(try box.console("system --json").hasPrefix("{"))
        #expect(try box.console("events").isEmpty == false)
        // No buttons and no remote on this board: said, not an empty answer.
        #expect(try box.console("gpio") == "error: this board has no buttons or encoder")
        #expect(try box.console("remote").hasPrefix("error: this board has no remote"))
    }

    @Test func uptimeCountsFromTheBoxsStartOnItsClock() throws {
        let box = try VirtualAppliance(board: ApplianceScenarioTests.board())
        try box.run(seconds: 65)
        let lines = try box.console("uptime").split(separator: "\n").map(String.init)
        #expect(lines.first == "uptime: 0 h 01 min", "\(lines)")
        #expect(lines.dropFirst().first == "uptime_s: 65", "\(lines)")
        #expect(try box.console("uptime --json").contains(#""uptime_s":65"#))
        #expect(try box.console("uptime now").hasPrefix("unparsed"), "a report takes no argument")
    }
}
