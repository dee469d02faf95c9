import DelayboxAnswers
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

    /// Issue 66: what a network door may grow or choose is bounded — 32 channels at most,
    /// the boards made for a Pi only — while the box's own doors keep the rest.
    @Test func aNetworkDoorAddsAtMost32ChannelsAndChoosesOnlyPiBoards() throws {
        let box = try VirtualAppliance(board: ApplianceScenarioTests.board())
        try box.run(seconds: 1)
        var added = 0
        for index in 0..<40 {
            let answer = try box.console("channel add S\(index) http://192.0.2.1/\(index).mp3", door: .mqtt)
            if answer.hasPrefix("error:") {
                #expect(answer.contains("adds none beyond 32"), "\(answer)")
                break
            }
            added += 1
        }
        let count = try box.console("channel list").split(separator: "\n").count
        #expect(count == NetworkDoorPolicy.maximumChannels, "\(added) added")
        #expect(try box.console("channel add Owner http://192.0.2.1/o.mp3").hasPrefix("error:") == false)
        let mine = try box.console("board list")
        let page = try box.console("board list", door: .page)
        #expect(mine.contains("virtual-board") && !page.contains("virtual-board") && page.contains("pi4-"), "\(page)")
        #expect(try box.console("board use virtual-board", door: .page).contains("no board 'virtual-board'"))
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
