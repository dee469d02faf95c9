import DelayboxControls
import DelayboxEngine
import DelayboxMQTT
import DelayboxNetwork

/// What the answers need from outside the pure world — the machine, the doors, the
/// journal — asked through the one thing the composition root implements. Each is quick
/// and safe on the playout thread: what reads the system is gathered on another thread
/// and kept there (`figures`, `release`).
public protocol BoxFacts: AnyObject {
    /// Delaybox's release and FFmpeg's libraries (`version`).
    var versions: VersionAnswer { get }
    /// The machine as last gathered, its uptime to now (`system`, `uptime`;
    /// `reconnects_failed` is the engine's).
    func machine() -> SystemAnswer
    /// This process's CPU time (s) and resident memory (bytes), for `stats`.
    func processFigures() -> (cpuSeconds: Double, residentBytes: Int)
    /// The healer's last line about this box's release (`release`); nil: none yet.
    var release: String? { get }
    /// The last release the healer put back and why (`last_rollback`); nil: none.
    var lastRollback: String? { get }
    /// The local clock's minute of the day (0..<1440) as `board.clock` says to believe it;
    /// nil while it cannot be believed.
    func localMinuteOfDay() -> Int?
    /// The page's link by the box's mDNS name, for `port`.
    func pageByName(port: Int) -> String
    /// The page's link by number at `now`; nil when no address on the LAN is known.
    func pageByNumber(port: Int, now: Instant) -> String?
    /// The box's address on the LAN by number (the page's link's host); nil when none is known.
    var lanAddress: String? { get }
    /// Where requests for root's helpers are left (the service's runtime directory); nil
    /// for a box not installed from the package.
    var requestDirectory: String? { get }

    /// The box's name in its MQTT group; nil: in no group.
    var venueMember: String? { get }
    /// Sends `line` to every box of the group; nil when it is on its way, else why not.
    func sayToGroup(_ line: String) -> String?
    /// How near the wall clock is to the room's, as last asked (a box of a group).
    var venueClock: VenueClock { get }
    /// The group's other boxes as last heard; nil when in no group.
    func groupMembers() -> [(member: GroupMember, heardSecondsAgo: Int)]?
    /// The front panel's input lines; nil when it is not running.
    func panelView() -> InputLineView?
    /// The remote's receiver and latest keys, and the kernel's monotonic now they are dated
    /// on; nil when it is not running.
    func remoteView() -> (view: RemoteView, now: Instant)?
    /// The Wi-Fi's keeper; nil when the board leaves the Wi-Fi alone.
    var wifi: (any WiFiControl)? { get }

    /// The journal's lines of the last hour (oldest first).
    func logLastHour() -> [String]
    /// The journal's newest `count` lines.
    func logRecent(_ count: Int) -> [String]
}
