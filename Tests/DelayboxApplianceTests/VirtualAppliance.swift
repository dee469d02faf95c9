import DelayboxAudio
import DelayboxConsole
import DelayboxDoors
import DelayboxEngine
import DelayboxFiles
import DelayboxOutput
import DelayboxProgramme
import DelayboxService
import DelayboxSimulation
import DelayboxTestSupport
import DelayboxWeb
import Foundation

@testable import DelayboxApp

/// A whole appliance in virtual time: `delaybox run`'s own composition (`Appliance`: the
/// board file, the saved settings, the `Playout` with its engine, mix and doors) on a
/// `ManualClock`, its output ring emptied by the real audio pump into a jack that keeps
/// what it heard. The demo channels deliver their programme on the same clock, so a
/// minute of playing takes well under a second and every run is the same.
final class VirtualAppliance {
    let clock = ManualClock()
    let directory: URL
    let boardPath: URL
    let jack: Jack
    private let output: OutputPath
    private let inbox: ConsoleInbox
    /// The page's password (kept beside the state file) and its window; nil: no page.
    let web: WebAccess?
    let playout: Playout
    /// When the playout started.
    let start: Instant

    /// Whether the directory goes with this box (not when it was given: a box started again).
    private let ownsDirectory: Bool

    /// A board of `board` YAML (the audio section is the jack's), its state beside it;
    /// `web`: the page's password and window as `delaybox run` keeps them, for a board with
    /// a `web:` section. `directory`: an earlier box's, as a box started again finds it.
    init(board: String, web: Bool = false, in earlier: URL? = nil) throws {
        ownsDirectory = earlier == nil
        let directory =
            earlier
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("delaybox-appliance-\(UUID().uuidString)")
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        boardPath = directory.appendingPathComponent("board.yaml")
        try board.write(to: boardPath, atomically: true, encoding: .utf8)
        let statePath = directory.appendingPathComponent("state.json").path
        self.web = web ? WebPasswordFile.access(besideState: statePath) : nil
        inbox = ConsoleInbox(web: self.web)
        let appliance = try Appliance(options: Appliance.Options(boardPath: boardPath.path, statePath: statePath))
        let sleeper = ManualSleeper(clock: clock)
        let jack = Jack(clock: clock, sleeper: sleeper)
        self.jack = jack
        let cues = FeedbackCues()
        output = OutputPath(
            device: .null, request: OutputDevice.Request(), mixerControl: nil, clock: clock, sleeper: sleeper,
            cues: cues.player, open: { () throws(OutputError) -> any OutputDriver in jack })
        start = clock.now()
        playout = try appliance.makePlayout(
            output: output, cues: cues, inbox: inbox, clock: clock, log: ApplianceLog(board: "virtual", output: "jack"),
            systemd: SystemdNotifier(environment: [:]), now: start)
    }

    deinit {
        playout.close()
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Runs `seconds` of virtual time: the playout thread's wake-up, then the audio
    /// thread's, which sleeps (moves the clock) until the device has room.
    func run(seconds: Double) throws {
        let end = clock.now().advanced(byNanoseconds: Int64(seconds * 1e9))
        while clock.now() < end {
            try playout.step(now: clock.now())
            output.pump.step()
        }
    }

    /// A console line, answered by the playout's next wake-up, as `delayboxctl` and the
    /// serial console get it (or as a network door that let it through: `door`).
    func console(_ line: String, door: NetworkDoorPolicy.Door? = nil) throws -> String {
        guard case .success(var request)? = ConsoleLanguage.parse(line) else { return "unparsed: \(line)" }
        request.door = door
        guard let pending = inbox.post(request) else { return "closed" }
        try playout.step(now: clock.now())
        // A reply waiting for a file written on the saver's thread comes once it is.
        if pending.answer == nil { try settleFileErrands() }
        return pending.answer?.rendered(json: request.json) ?? "no answer"
    }

    /// The value of `key` in the console's `status`.
    func status(_ key: String) throws -> String? {
        try console("status").split(separator: "\n").first { $0.hasPrefix(key + ": ") }.map {
            String($0.dropFirst(key.count + 2))
        }
    }

    /// The board file rewritten; SIGHUP's reload.
    func reload(board: String) throws {
        try board.write(to: boardPath, atomically: true, encoding: .utf8)
        playout.requestReload()
        try settleFileErrands()
    }

    /// Steps (without moving the clock) until the files the playout had written or read on
    /// the saver's thread are taken back: that thread works on the real disk, in real time.
    func settleFileErrands() throws {
        let deadline = Date().addingTimeInterval(10)
        repeat {
            try playout.step(now: clock.now())
            if playout.fileErrandsUnderWay > 0 { Thread.sleep(forTimeInterval: 0.002) }
        } while playout.fileErrandsUnderWay > 0 && Date() < deadline
    }
}
