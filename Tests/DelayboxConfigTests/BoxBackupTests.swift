import DelayboxConfig
import DelayboxJSON
import DelayboxTestSupport
import DelayboxUnits
import Foundation
import Testing

/// A backup's file as an owner keeps it: what it holds reads back the same, a file that is
/// not one is refused with where and why, and what changed between two is said in words.
@Suite(.timeLimit(.minutes(10))) struct BoxBackupTests {
    static let settings = Settings(
        delay: .milliseconds(42_300), volume: 37, channel: "City Radio", presets: [1: 40_000, 2: 61_500],
        adsEnabled: false)
    static let backup = BoxBackup(
        box: "bar-screen-1", release: "1.4.0", takenUnixS: 1_796_040_584, settings: settings,
        config: "\"channels\": [{\"name\": \"City Radio\", \"url\": \"https://radio.example/live.mp3\"}]\n",
        dailyUpdates: false)

    func refusal(_ text: String, maxDelay: TimeAmount = .milliseconds(3_600_000)) -> String {
        guard case .failure(let problem) = BoxBackup.read(text, maxDelay: maxDelay) else { return "read" }
        return problem.description
    }

    @Test func aBackupReadsBackAsItWasWritten() throws {
        let read = try BoxBackup.read(Self.backup.text, maxDelay: .milliseconds(3_600_000)).get()
        #expect(read == Self.backup)
        #expect(Self.backup.text.contains("\"delaybox_backup\" : 1"), "\(Self.backup.text)")
        #expect(Self.backup.text.contains("\"daily_updates\" : false"), "\(Self.backup.text)")
    }

    @Test func aFileThatIsNoBackupIsRefusedWithWhereAndWhy() {
        let text = Self.backup.text
        let cut = String(text.prefix(120))
        #expect(refusal(cut).hasPrefix("this is not a Delaybox backup (not JSON at line "), "\(refusal(cut))")
        let broken = text.replacingOccurrences(of: "\"volume\" : 37", with: "\"volume\" : 37,,")
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains("\"volume\"") }! + 1
        #expect(refusal(broken).contains("line \(line), column "), "\(refusal(broken)) (line \(line))")
        #expect(refusal("").contains("empty"))
        #expect(refusal("{\"some\": \"other file\"}").contains("is missing"), "\(refusal("{}"))")
        let wrongKind = text.replacingOccurrences(of: "\"volume\" : 37", with: "\"volume\" : \"loud\"")
        #expect(refusal(wrongKind).contains("`settings.volume`"), "\(refusal(wrongKind))")
        let negative = text.replacingOccurrences(of: "\"delayMs\" : 42300", with: "\"delayMs\" : -5")
        #expect(refusal(negative).contains("out of range"), "\(refusal(negative))")
        let future = text.replacingOccurrences(of: "\"delaybox_backup\" : 1", with: "\"delaybox_backup\" : 2")
        #expect(refusal(future).contains("format 2"), "\(refusal(future))")
        let huge = String(repeating: " ", count: BoxBackup.largestBytes + 1) + text
        #expect(refusal(huge).contains("at most"), "\(refusal(huge))")
    }

    @Test func aDelayAboveTheBoxsLimitIsBroughtToIt() throws {
        let read = try BoxBackup.read(Self.backup.text, maxDelay: .milliseconds(41_000)).get()
        #expect(read.settings.delay.milliseconds == 41_000 && read.settings.presets == [1: 40_000, 2: 41_000])
    }

    @Test func whatChangedIsSaidAndTheVolumeAndClocksAreNoChange() {
        var later = Self.backup
        later.settings.volume = 80
        later.settings.stationClocks = ["https://radio.example/live.mp3": 12.5]
        later.takenUnixS += 600
        #expect(later.sameChoices(as: Self.backup) && later.changes(from: Self.backup).isEmpty)
        later.settings.delay = .milliseconds(45_000)
        later.settings.presets[2] = nil
        later.settings.presets[3] = 2_500
        later.settings.channel = nil
        later.dailyUpdates = true
        later.config = ""
        #expect(
            later.changes(from: Self.backup) == [
                "delay 42.3 s → 45 s", "channel City Radio → none", "preset 2 61.5 s → empty", "preset 3 empty → 2.5 s",
                "saved config (channels, MQTT, update window)", "nightly updates on",
            ])
    }

    @Test func jsonSyntaxNamesTheFirstPlaceThatIsNotJSON() {
        #expect(JSONSyntax.firstError(in: "{\"a\": [1, 2.5e3, true, null, \"x\\u00e9\"]}") == nil)
        #expect(
            JSONSyntax.firstError(in: "{\n  \"a\": 1\n  \"b\": 2\n}")?.description
                == "line 3, column 3: expected ',' or '}'")
        #expect(JSONSyntax.firstError(in: "[1, 2")?.problem == "the text ends early")
        #expect(JSONSyntax.firstError(in: "\"a\nb\"")?.line == 1)
        #expect(JSONSyntax.firstError(in: "{} x")?.problem == "more after the end of the value")
        #expect(JSONSyntax.firstError(in: "[01]")?.problem == "expected ',' or ']'")
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(JSONSyntax.firstError(in: deep)?.problem.contains("nested more than") == true)
    }

    @Test func aDayOfTheCalendarFromUnixTime() {
        #expect(CivilDate(unixSeconds: 0).text == "1970-01-01")
        #expect(CivilDate(unixSeconds: 1_796_040_584).text == "2026-11-30")
        #expect(CivilDate(unixSeconds: 951_782_400).text == "2000-02-29")
        #expect(CivilDate(unixSeconds: -1).text == "1969-12-31")
        #expect(CivilDate.stamp(unixSeconds: 1_796_040_584) == "2026-11-30 12:09 UTC")
        #expect(CivilDate.stamp(unixSeconds: -60) == "1969-12-31 23:59 UTC")
    }
}
