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
        var requestDirectory: String?
        var venueMember: String?
        var members: [(member: GroupMember, heardSecondsAgo: Int)]?
        var said: [String] = []
        var wifi: (any WiFiControl)? { nil }

        func machine() -> SystemAnswer { machineNow }
        func processFigures() -> (cpuSeconds: Double, residentBytes: Int) { (1.234, 31_000_000) }
        func localMinuteOfDay() -> Int? { nil }
        func pageByName(port: Int) -> String { "http://pub-box.local:\(port)/" }
        func pageByNumber(port: Int, now: Instant) -> String? { "http://192.168.1.20:\(port)/" }
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
        let config = BoardConfig.player(channels: lineup, device: "null", periodMs: 20, delayMs: 5_000)
        box = BoxSnapshot(
            engine: rig.engine,
            executor: CommandExecutor(engine: rig.engine, settings: Settings(delayMs: 5_000, volume: 50)),
            channel: lineup.selected, config: config, document: nil, output: OutputStatistics(),
            playoutThreadPriority: 40, recording: [], recentEvents: [], updateGate: UpdateRestartGate())
        channels = ChannelChoice(lineup: lineup)
        answers = ConsoleAnswers(
            facts: facts, box: box, started: rig.now, consoleConfigPath: nil, boardChoices: BoardChoices())
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
