import DelayboxAudio
import DelayboxConfig
import DelayboxConsole
import DelayboxControls
import DelayboxEngine
import DelayboxMQTT
import DelayboxNetwork
import DelayboxTestSupport
import DelayboxUnits
import Testing

@testable import DelayboxAnswers

/// The console's answers alone, without a box: a real engine (`EngineRig`) and what the
/// root would know of the world handed in by a stand-in (`StandInFacts`). What a request
/// needs beyond its reply comes back as an effect, never done here.
@Suite(.timeLimit(.minutes(10))) struct ConsoleAnswersTests {
    /// What the root knows, as a test sets it; the lines said to the group are kept.
    final class StandInFacts: BoxFacts {
        var versions = VersionAnswer(version: "9.9.9-1~deb13", ffmpeg: "7.1")
        var machineNow = SystemAnswer(
            hostname: "pub-box", addresses: "eth0 192.168.1.20", systemUptimeS: 4_000, reconnectsFailed: 0)
        var release: String?
        var lastRollback: String?
        var requestDirectory: String?
        var venueMember: String?
        var venueClock = VenueClock.unknown("chrony is not installed")
        var members: [(member: GroupMember, heardSecondsAgo: Int)]?
        var said: [String] = []
        var wifi: (any WiFiControl)? { nil }

        func machine() -> SystemAnswer { machineNow }
        func processFigures() -> (cpuSeconds: Double, residentBytes: Int) { (1.234, 31_000_000) }
        func localMinuteOfDay() -> Int? { nil }
        func pageByName(port: Int) -> String { "http://pub-box.local:\(port)/" }
        func pageByNumber(port: Int, now: Instant) -> String? { "http://192.168.1.20:\(port)/" }
        var lanAddress: String? { "192.168.1.20" }
        func sayToGroup(_ line: String) -> String? {
            said.append(line)
            return nil
        }
        func groupMembers() -> [(member: GroupMember, heardSecondsAgo: Int)]? { members }
        func panelView() -> InputLineView? { nil }
        func remoteView() -> (view: RemoteView, now: Instant)? { nil }
        func logLastHour() -> [String] { [] }
        func logRecent(_ count: Int) -> [String] { [] }
    }

    let facts = StandInFacts()
    let rig: EngineRig
    var answers: ConsoleAnswers
    var channels: ChannelChoice
    let box: BoxSnapshot

    init() throws {
        rig = try EngineRig(configuration: EngineConfiguration())
        let lineup = try ChannelLineup([Channel(name: "Club", streamURL: "http://club.example/live")])
        let config = BoardConfig.player(
            channels: lineup, device: "null", period: .milliseconds(20), delay: .milliseconds(5_000))
        box = BoxSnapshot(
            engine: rig.engine,
            executor: CommandExecutor(engine: rig.engine, settings: Settings(delay: .milliseconds(5_000), volume: 50)),
            channel: lineup.selected, config: config, document: nil, output: OutputStatistics(),
            playoutThreadPriority: 40, recording: [], recentEvents: [], updateGate: UpdateRestartGate(),
            dailyUpdates: true)
        channels = ChannelChoice(lineup: lineup)
        answers = ConsoleAnswers(
            facts: facts, box: box, started: rig.now, consoleConfigPath: nil,
            dailyUpdatesPath: "/var/lib/delaybox/daily-updates", boardChoices: BoardChoices())
    }

    /// `line` answered; its effects in `effects`.
    mutating func ask(_ line: String, effects: inout [ConsoleEffect]) throws -> ConsoleReply? {
        guard case .success(let request)? = ConsoleLanguage.parse(line) else {
            Issue.record("not a line of the language: \(line)")
            return nil
        }
        return answers.answer(request, box: box, channels: &channels, effects: &effects, now: rig.now)
    }

    @Test mutating func anUpdateIsAFileLeftForRootsHelperAndAnsweredOnceItIsThere() throws {
        var effects: [ConsoleEffect] = []
        let unpackaged = try ask("update", effects: &effects)
        #expect(
            unpackaged?.kind == .unavailable && unpackaged?.reason?.contains("not installed from the package") == true)
        #expect(effects.isEmpty, "nothing asked of the disk")

        facts.requestDirectory = "/run/delaybox"
        #expect(try ask("update 1.4.0-1~deb13", effects: &effects) == nil, "the reply waits for the file")
        guard case .write(let write)? = effects.first, effects.count == 1 else {
            Issue.record("one file to write: \(effects)")
            return
        }
        #expect(write.path == "/run/delaybox/update-request" && write.mode == 0o640)
        #expect(write.content == .bytes(Array("1.4.0-1~deb13\n".utf8)))
        let done = answers.fileWritten(write, error: nil)
        #expect(done.kind == .ok && done.rendered(json: false).contains("update: asked for 1.4.0-1~deb13"))
        let failed = answers.fileWritten(write, error: "No space left on device")
        #expect(failed.kind == .unavailable && failed.reason == "cannot ask for an update: No space left on device")
    }

    /// The page's Box → Updates: "Check now" is a look alone, left for root's helper; the
    /// nightly look is switched in the box's file, its reply once written; `status` says both
    /// and the last rollback, on a box installed from the package.
    @Test mutating func updatesAreLookedForAndSwitchedAsTheOwnerSays() throws {
        var effects: [ConsoleEffect] = []
        #expect(try ask("update daily off", effects: &effects)?.kind == .unavailable, "no package: no daily updates")
        facts.requestDirectory = "/run/delaybox"
        #expect(try ask("update check", effects: &effects) == nil)
        #expect(effects.count == 1)
        if case .write(let write)? = effects.first {
            #expect(write.path == "/run/delaybox/update-request" && write.content == .bytes(Array("check\n".utf8)))
            #expect(answers.fileWritten(write, error: nil).rendered(json: false).contains("looking for a new release"))
        }
        effects.removeAll()
        #expect(try ask("update later", effects: &effects) == nil)
        if case .write(let write)? = effects.first { #expect(write.content == .bytes(Array("later\n".utf8))) }
        effects.removeAll()
        #expect(try ask("update daily", effects: &effects)?.rendered(json: false) == "daily_updates: on")
        #expect(try ask("update daily off", effects: &effects) == nil)
        guard case .write(let daily)? = effects.first, effects.count == 1 else {
            Issue.record("one file to write: \(effects)")
            return
        }
        #expect(daily.path == "/var/lib/delaybox/daily-updates" && daily.content == .bytes(Array("off\n".utf8)))
        #expect(daily.purpose == .dailyUpdates(on: false))
        #expect(answers.fileWritten(daily, error: nil).rendered(json: false) == "daily_updates: off")
        facts.lastRollback = "2026-11-30 04:12 1.3 failed its check (restarted by systemd); 1.2 was put back"
        let status = try #require(try ask("status", effects: &effects)).rendered(json: false)
        #expect(
            status.contains("daily_updates: on") && status.contains("last_rollback: 2026-11-30 04:12 1.3"), "\(status)")
    }

    @Test mutating func theMachineAndTheReleaseAreTheRootsFiguresAndTheEnginesCounts() throws {
        var effects: [ConsoleEffect] = []
        let system = try #require(try ask("system", effects: &effects)).rendered(json: false)
        #expect(system.contains("hostname: pub-box") && system.contains("system_uptime_s: 4000"), "\(system)")
        facts.release = "1.4.0-1~deb13: playing since 12:00"
        let status = try #require(try ask("status", effects: &effects)).rendered(json: false)
        #expect(status.contains("release: 1.4.0-1~deb13: playing since 12:00"), "\(status)")
        let stats = try #require(try ask("stats", effects: &effects)).rendered(json: false)
        #expect(stats.contains("playout_thread: fifo 40") && stats.contains("rss_mb: 31"), "\(stats)")
        let version = try #require(try ask("version", effects: &effects)).rendered(json: false)
        #expect(version.contains("9.9.9-1~deb13"), "\(version)")
        #expect(effects.isEmpty, "reports change nothing")
    }

    @Test mutating func aGroupsLineGoesThroughTheDoorsAndABoxInNoGroupSaysSo() throws {
        var effects: [ConsoleEffect] = []
        let members = try #require(try ask("group", effects: &effects))
        #expect(members.kind == .unavailable && members.reason == MQTTTopics.inNoGroup)
        let sent = try #require(try ask("group delay 30", effects: &effects))
        #expect(sent.kind == .ok && facts.said == ["delay 30"], "\(sent.rendered(json: false))")
    }
}
