import DelayboxAnswers
import DelayboxConfig
import DelayboxControls
import DelayboxDoors
import DelayboxFFmpeg
import DelayboxMQTT
import DelayboxNetwork
import DelayboxPlatform
import DelayboxService
import DelayboxUnits
import Glibc
import Synchronization

/// What the console's answers know of the world outside them (`BoxFacts`), as the root
/// has it: the doors, the journal, the clock `board.clock` believes, and what it reads from
/// files — the healer's release line, the machine's figures — gathered off the playout
/// thread (`gather`, on the saver's) and kept here. `status` is asked every second while
/// the page is open and at every MQTT status; the playout thread's render is due within
/// the ring's 40 ms, and a file read there waits on the SD card when an upgrade is writing
/// to it — exactly when the release line changes.
final class ApplianceFacts: BoxFacts {
    /// How often the release line is read again: soon enough that `status` asked after the
    /// healer wrote says what it wrote (a tiny file, from the page cache).
    static let releaseInterval = TimeAmount.milliseconds(500)
    /// How often the machine's figures are read again (`system`; the page's link by number).
    static let machineInterval = TimeAmount.seconds(5)

    private let doors: Doors
    private let wallClock: @Sendable () -> Double?
    /// What is read from files, kept for the answers.
    let gathered = GatheredFacts()

    /// Reads the files once, before playout runs.
    init(doors: Doors, wallClock: @escaping @Sendable () -> Double?, venueClock: VenueClockSource?) {
        (self.doors, self.wallClock) = (doors, wallClock)
        gathered.gather(machine: true, venueClock: venueClock)
    }

    let versions = VersionAnswer(version: DelayboxVersion.string, ffmpeg: FFmpegLibrary.version)

    func machine() -> SystemAnswer {
        let (machine, at) = gathered.machine
        let since = Int((SystemClock.monotonicNow() - at).nanoseconds / 1_000_000_000)
        return SystemAnswer(
            hostname: HostName.current(), addresses: machine.addresses.joined(separator: ", "),
            wifiInterface: machine.wifi?.interface, wifiSignalDbm: machine.wifi?.signalDBm,
            wifiMissedBeacons: machine.wifi?.missedBeacons, cpuTemperatureC: machine.cpuTemperatureC,
            systemUptimeS: machine.uptimeS.map { $0 + since }, reconnectsFailed: 0)
    }

    func processFigures() -> (cpuSeconds: Double, residentBytes: Int) {
        (ProcessFigures.cpuSeconds(), ProcessFigures.residentBytes())
    }

    var release: String? { gathered.release }

    var lastRollback: String? { gathered.lastRollback }

    func localMinuteOfDay() -> Int? { wallClock().map { WallClock.localMinuteOfDay(unixTime: $0) } }

    func pageByName(port: Int) -> String { PageLinks.byName(port: port) }

    func pageByNumber(port: Int, now: Instant) -> String? {
        PageLinks.link(port: port, addresses: gathered.machine.figures.addresses)
    }

    var lanAddress: String? { PageLinks.lanAddress(among: gathered.machine.figures.addresses) }

    var requestDirectory: String? {
        getenv("RUNTIME_DIRECTORY").map { String(cString: $0) }
    }

    /// The port a venue's hub serves its broker on: 1883; a test's own hub says another
    /// (`DELAYBOX_VENUE_BROKER_PORT`, as its root's helper listens there).
    var venueBrokerPort: Int {
        getenv("DELAYBOX_VENUE_BROKER_PORT").flatMap { Int(String(cString: $0)) }.flatMap {
            (1...65535).contains($0) ? $0 : nil
        } ?? 1883
    }

    var venueMember: String? { doors.venueMember }

    var venueClock: VenueClock { gathered.venueClock }

    func sayToGroup(_ line: String) -> String? { doors.sayToGroup(line) }

    func groupMembers() -> [(member: GroupMember, heardSecondsAgo: Int)]? { doors.groupMembers() }

    func panelView() -> InputLineView? { doors.panel?.inputView() }

    func remoteView() -> (view: RemoteView, now: Instant)? {
        doors.remote.map { ($0.view(), SystemClock.monotonicNow()) }
    }

    var wifi: (any WiFiControl)? { doors.wifi }

    func logLastHour() -> [String] { JournalLog.lastHour() }

    func logRecent(_ count: Int) -> [String] { Array(JournalLog.recent.withLock { $0 }.suffix(count)) }
}

/// The release line and the machine's figures as last read (`gather`, on a thread that
/// may wait on the disk).
final class GatheredFacts: Sendable {
    private struct Read {
        var release: String?
        var lastRollback: String?
        var machine = SystemFigures()
        /// When `machine` was read (CLOCK_MONOTONIC).
        var machineAt = Instant.zero
        var venueClock = VenueClock.unknown("not asked yet")
    }
    private let read = Mutex(Read())

    /// Reads the release line again, and when `machine` the machine's figures and, for a
    /// box of a group, what `venueClock` says of its wall clock.
    func gather(machine: Bool, venueClock: VenueClockSource?) {
        let (release, rollback) = (ReleaseStatus.read(), ReleaseStatus.lastRollback())
        let figures = machine ? SystemFigures.read() : nil
        let clock: VenueClock? =
            switch (machine, venueClock) {
            case (true, .chrony): Self.askChrony()
            case (true, .own): .own
            default: nil
            }
        let at = SystemClock.monotonicNow()
        read.withLock {
            ($0.release, $0.lastRollback) = (release, rollback)
            if let figures { ($0.machine, $0.machineAt) = (figures, at) }
            if let clock { $0.venueClock = clock }
        }
    }

    private static func askChrony() -> VenueClock {
        let (output, status) = ChronyReport.read()
        return VenueClock.chrony(output: output, status: status)
    }

    /// How near the wall clock is to the room's, as last asked.
    var venueClock: VenueClock { read.withLock { $0.venueClock } }

    /// The healer's last line about this box's release; nil on a box not installed from the package.
    var release: String? { read.withLock { $0.release } }

    /// The last release the healer put back and why; nil: none.
    var lastRollback: String? { read.withLock { $0.lastRollback } }

    /// The machine's figures, and when they were read.
    var machine: (figures: SystemFigures, at: Instant) { read.withLock { ($0.machine, $0.machineAt) } }
}
