import DelayboxConfig
import DelayboxSimulation
import DelayboxState
import DelayboxTestSupport
import Foundation
import Testing

/// The state file through real power cuts: the virtual board saves settings on its own
/// ext4 disk and loses power (sysrq `b`: no sync, the kernel's page cache gone) at random
/// moments; the next boot finds a whole generation, never older than the last one the
/// writer reported saved. A writer that does not flush is caught the same way: the test
/// can fail.
extension VirtualBoardTests {
    /// What one power cut left: the last generation reported saved before it, and what the
    /// next boot found on the disk.
    struct PowerCut {
        var reported: Int64?
        var found: (settings: Settings, problem: String?)
        var listing: String

        /// The generation in the file, if the file is one whole generation.
        var wholeGeneration: Int64? { found.problem == nil ? found.settings.generation : nil }
    }

    @Test func theSettingsSurviveAPowerCutAtAnyMoment() throws {
        let directory = try prepare("power-cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try Self.newDisk(in: directory)
        var random = SplitMix64(seed: 21)
        var first: Int64 = 1
        for cycle in 1...3 {
            let after = Double.random(in: 0.2...2.5, using: &random)
            let cut = try powerCut(directory, disk: disk, after: after, first: first)
            let context =
                "cycle \(cycle), power cut \(String(format: "%.2f", after)) s in: \(cut.reported ?? -1) reported, found \(cut.found), listing \(cut.listing)"
            let reported = try #require(
                cut.reported, "the writer reported no save: \(context)\n\(Self.text(directory, "scenario.log"))")
            let generation = try #require(cut.wholeGeneration, "the file is one whole generation: \(context)")
            #expect(generation >= reported, "never older than what was reported saved: \(context)")
            first = generation + 1
        }
    }

    /// The negative control: saves that are never flushed are lost in a power cut, and the
    /// checks above see it (the state file missing, or older than reported).
    @Test func aWriterThatDoesNotFlushIsCaughtByThePowerCut() throws {
        let directory = try prepare("power-cut")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = try powerCut(
            directory, disk: try Self.newDisk(in: directory), after: 1, first: 1, flags: "--without-fsync")
        let reported = try #require(cut.reported, "\(Self.text(directory, "scenario.log"))")
        #expect(
            cut.wholeGeneration.map { $0 < reported } ?? true,
            "unflushed saves were lost: \(reported) reported, found \(cut.found), listing \(cut.listing)")
    }

    /// Boots the board to save settings from generation `first` and cut its power `after`
    /// seconds into it, then boots it again to read the disk.
    func powerCut(_ directory: URL, disk: URL, after: Double, first: Int64, flags: String = "") throws -> PowerCut {
        let run = Self.root.appendingPathComponent("tools/virtual-board/run.sh")
        for file in ["reported.txt", "found.json", "listing.txt"] {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
        }
        try "cut \(after) \(first) \(flags)\n".write(
            to: directory.appendingPathComponent("phase"), atomically: true, encoding: .utf8)
        let cut = try ExternalTool.execute(run, [directory.path, "120"], environment: ["BOARD_DISK": disk.path])
        #expect(
            cut.status == 125,
            "the board lost power mid-scenario: \(cut.errors)\n\(Self.text(directory, "scenario.log"))")
        try "check\n".write(to: directory.appendingPathComponent("phase"), atomically: true, encoding: .utf8)
        let check = try ExternalTool.execute(run, [directory.path, "120"], environment: ["BOARD_DISK": disk.path])
        #expect(
            check.status == 0, "the next boot read the disk: \(check.errors)\n\(Self.text(directory, "scenario.log"))")
        let reported = Self.text(directory, "reported.txt").split(separator: "\n").last.flatMap { Int64($0) }
        let found = SettingsFile(path: directory.appendingPathComponent("found.json").path)
            .load(fallback: Settings(delay: .milliseconds(0), volume: 0), maxDelay: .milliseconds(300_000))
        return PowerCut(reported: reported, found: found, listing: Self.text(directory, "listing.txt"))
    }

    /// A fresh 64 MB ext4 disk image, as the board's SD card's root file system.
    static func newDisk(in directory: URL) throws -> URL {
        let disk = directory.appendingPathComponent("disk.img")
        try ExternalTool.run(["truncate", "-s", "64M", disk.path])
        try ExternalTool.run(["mkfs.ext4", "-q", "-F", disk.path])
        return disk
    }
}
