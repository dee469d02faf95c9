import DelayboxConfig
import DelayboxState
import DelayboxTestSupport
import DelayboxUnits
import Foundation
import Testing

/// The copies a box keeps of itself for "undo the last change": one after each change, a
/// knob turned over a few seconds one change, a start never replaced, the last few kept.
@Suite(.timeLimit(.minutes(10))) struct BackupShelfTests {
    static let maxDelay = TimeAmount.milliseconds(3_600_000)

    func box(delayMs: Int64, volume: Int = 50, config: String = "") -> BoxBackup {
        BoxBackup(
            box: "test", release: "1.0", takenUnixS: 0,
            settings: Settings(delay: .milliseconds(delayMs), volume: volume),
            config: config, dailyUpdates: true)
    }

    func shelf() throws -> (BackupShelf, URL) {
        let directory = try ExternalTool.temporaryDirectory("shelf")
        return (BackupShelf(directory: directory.appendingPathComponent("backups").path), directory)
    }

    func delays(_ shelf: BackupShelf) -> [Int64] {
        shelf.copies(maxDelay: Self.maxDelay).map(\.backup.settings.delay.milliseconds)
    }

    @Test func aChangeKeepsACopyAndQuickChangesAreOne() throws {
        let (shelf, directory) = try shelf()
        defer { try? FileManager.default.removeItem(at: directory) }
        try shelf.keep(box(delayMs: 2_000), nowUnixMs: 0, settles: false, maxDelay: Self.maxDelay)
        // The volume alone is no change an owner undoes.
        #expect(try !shelf.keep(box(delayMs: 2_000, volume: 90), nowUnixMs: 1_000, maxDelay: Self.maxDelay))
        // A knob turned 2.1, 2.2, 2.3 s within seconds: one change, and the start stays.
        for (step, delay) in [2_100, 2_200, 2_300].enumerated() {
            try shelf.keep(
                box(delayMs: Int64(delay)), nowUnixMs: 5_000 + Int64(step) * 2_000, maxDelay: Self.maxDelay)
        }
        #expect(delays(shelf) == [2_300, 2_000])
        // A minute later another change is another copy.
        try shelf.keep(box(delayMs: 7_000), nowUnixMs: 70_000, maxDelay: Self.maxDelay)
        #expect(delays(shelf) == [7_000, 2_300, 2_000])
        #expect(shelf.beforeLastChange(maxDelay: Self.maxDelay)?.backup.settings.delay.milliseconds == 2_300)
        // Changed and changed back within the settling time: the copy before is the box again.
        try shelf.keep(box(delayMs: 2_300), nowUnixMs: 75_000, maxDelay: Self.maxDelay)
        #expect(delays(shelf) == [2_300, 2_000])
    }

    @Test func anUndoForgetsTheNewerCopiesAndTheLastFewAreKept() throws {
        let (shelf, directory) = try shelf()
        defer { try? FileManager.default.removeItem(at: directory) }
        for index in 0..<10 {
            try shelf.keep(
                box(delayMs: Int64(index) * 1_000), nowUnixMs: Int64(index) * 60_000, maxDelay: Self.maxDelay)
        }
        #expect(delays(shelf) == [9_000, 8_000, 7_000, 6_000, 5_000, 4_000])
        let before = try #require(shelf.beforeLastChange(maxDelay: Self.maxDelay))
        try shelf.forget(newerThan: before, maxDelay: Self.maxDelay)
        #expect(delays(shelf) == [8_000, 7_000, 6_000, 5_000, 4_000])
        // A start right after keeps what it started with and is not replaced by a change.
        try shelf.keep(
            box(delayMs: 8_000, config: "a: \"b\"\n"), nowUnixMs: 600_000, settles: false, maxDelay: Self.maxDelay)
        try shelf.keep(box(delayMs: 9_000, config: "a: \"b\"\n"), nowUnixMs: 601_000, maxDelay: Self.maxDelay)
        #expect(delays(shelf) == [9_000, 8_000, 8_000, 7_000, 6_000, 5_000])
    }

    @Test func aCopyThatNoLongerReadsIsLeftOut() throws {
        let (shelf, directory) = try shelf()
        defer { try? FileManager.default.removeItem(at: directory) }
        try shelf.keep(box(delayMs: 2_000), nowUnixMs: 0, settles: false, maxDelay: Self.maxDelay)
        try "{ torn".write(toFile: shelf.directory + "/backup-5.json", atomically: true, encoding: .utf8)
        #expect(delays(shelf) == [2_000])
        #expect(!FileManager.default.fileExists(atPath: shelf.directory + "/backup-5.json"))
        #expect(shelf.beforeLastChange(maxDelay: Self.maxDelay) == nil, "nothing to undo")
    }
}
