import DelayboxCommands
import DelayboxNetwork

/// One console line, understood: what to do and whether to answer in JSON. The serial
/// console and the control socket (`delayboxctl`) both speak this language.
public struct ConsoleRequest: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case help(topic: String?)
        case status
        /// A command that takes no argument and changes nothing, answered by its name
        /// (`version`, `system`, `events`, `gpio`, `remote`, …: the language's entries
        /// marked `report`, each answered in `ConsoleAnswers.reports`).
        case report(String)
        /// Asks the package's updater (root, outside the service) to update Delaybox: to
        /// the newest release in the box's apt sources, or to exactly `version`. `later`: the
        /// new release starts once the box is quiet or in its update window (a group's
        /// update in stages), not at once (a hand at the box asking).
        case update(version: String?, later: Bool = false)
        /// Asks the package's updater to look for a newer release without installing it
        /// (the page's "Check now"): `status`'s `release` says what it found.
        case updateCheck
        /// Shows (nil) or switches the nightly look for a newer release
        /// (`delaybox-autoupdate.timer`'s run does nothing while off).
        case dailyUpdates(Bool?)
        /// A group's update in stages: `canary` first, this box once the canary plays the
        /// new release (MQTT's door carries it out: it watches the canary). Each box's new
        /// release starts in its update window or once it is quiet, unless `now` (the
        /// venue's manager says `--now`).
        case stagedUpdate(canary: String, now: Bool = false)
        /// Something that changes the box: the same commands buttons produce.
        case command(Command)
        case showDelay
        case showVolume
        case listChannels
        case selectChannel(String)
        /// A channel added to the running config (a station's stream or its link: .pls,
        /// .m3u, .xspf, .asx); `config save` keeps it.
        case addChannel(name: String, url: String)
        case removeChannel(String)
        /// Shows whether ads play (`ads on|off` is a command).
        case showAds
        case stats(watch: Bool)
        case logLevel(String?)
        case logTail(lines: Int)
        /// The last hour's log lines, each with its local time.
        case logHour
        case configShow
        case configGet(key: String)
        case configSet(key: String, value: String)
        case configSave
        case board
        /// A `delay` or `channel` line for every box of this box's venue group, published on
        /// the group's topic (this box follows it from there too).
        case toGroup(String)
        /// The group's other boxes as last heard: state, channel, delay.
        case groupMembers
        /// The shipped board configs by name, the one the HAT's EEPROM names marked.
        case boardList
        /// Asks root's helper to make the shipped board `name` this box's (board.yaml,
        /// config.txt's lines) and restart the box on it: the page's "Use this board".
        case chooseBoard(String)
        case tone(on: Bool)
        /// Whether the web page has a password, and how long the page may choose one.
        case web
        /// Sets the web page's password (answered by the door, not the playout thread:
        /// hashing takes tens of milliseconds on purpose).
        case webPassword(String)
        /// Forgets the web page's password; the page lets one be chosen for 30 minutes.
        case webReset
        /// The box's Wi-Fi: the network it is on, its hotspot, the networks in reach.
        case wifi
        /// Joins a Wi-Fi network (a password "" for an open one): the hotspot closes, the box
        /// says its new address once on it.
        case wifiJoin(ssid: String, password: String)
        /// Opens (when no network works) or closes the box's hotspot.
        case wifiHotspot(open: Bool)
        /// Back to the factory's settings: the listener's settings (delay, volume, presets,
        /// channel), what the console saved and the page's password removed, the box restarted
        /// as new; the Wi-Fi it joined kept unless `forgetWiFi`. The owner's: at the box (its
        /// console, delayboxctl, a button held through power-on) or on the page with the
        /// password typed again.
        case factoryReset(forgetWiFi: Bool)
        /// The box's settings as one file (`BoxBackup`), the copies it kept, a backup
        /// restored or the last change undone (`BackupJob`).
        case backup(BackupJob)
        /// The box's own hotspot password from now on (kept beside the state file; a phone on
        /// the hotspot joins again with it). The page's owner or the box's, never MQTT.
        case wifiHotspotPassword(String)
        /// This box's part in a venue: its hub, a box of one, or neither.
        case venue
        /// This box becomes the hub of venue `group`: its broker and time server for the
        /// LAN, the box itself the venue's manager. The page's owner's or the box's.
        case venueServe(group: String)
        /// On the hub: a box named `box` let into its broker; the reply is its join code.
        case venueAdmit(box: String)
        /// The venue hubs this box hears on its LAN (mDNS: `VenueHubSearch`).
        case venueHubs
        /// This box joins the venue a hub's join code names: its broker, its group, its time.
        case venueJoin(VenueJoinCode)
        /// This box fetches its join code from the hub's page at `hub`:`port` with the key
        /// the hub's owner was shown, then joins with it.
        case venueClaim(hub: String, port: Int, key: String)
        /// On the hub: the join code `key` stands for, handed to the box that typed it (once).
        case venueHandOver(key: String)
        /// This box leaves its venue: a hub stops serving, a box stops following.
        case venueLeave
    }

    public var action: Action
    public var json: Bool
    /// The network door the line came through (set by that door once `NetworkDoorPolicy`
    /// let it pass); nil: the box's own doors — serial console, control socket, panel. An
    /// answer leaves out what only the owner may read (the hotspot's password) and caps
    /// what a neighbour may grow (channels) by it.
    public var door: NetworkDoorPolicy.Door?

    /// The command whose words asked for it (`ConsoleCommand.name`), set only when a console
    /// line is read (`ConsoleLanguage.parse`): a network door asks that command's policy,
    /// and refuses a request no line asked for. Not part of equality — the action is the request.
    public internal(set) var command: String?

    /// How long a door waits for the answer (s): the playout answers within its next wake,
    /// but a venue change waits for root's helper restarting a broker and a time server (up
    /// to 90 s: `VenueErrand`'s patience), and what is answered once written durably on the
    /// saver's thread — a backup (with passwords: yescrypt on a Pi Zero), `config save`, a
    /// factory reset — for an SD card's fsyncs under load, seconds each.
    public var patienceSeconds: Double {
        switch action {
        case .venueServe, .venueAdmit, .venueJoin, .venueClaim, .venueLeave: 100
        case .venueHubs: 5
        case .backup, .configSave, .factoryReset: 30
        default: 2
        }
    }

    public init(_ action: Action, json: Bool = false, door: NetworkDoorPolicy.Door? = nil) {
        self.action = action
        self.json = json
        self.door = door
    }

    public static func == (left: ConsoleRequest, right: ConsoleRequest) -> Bool {
        left.action == right.action && left.json == right.json && left.door == right.door
    }
}

/// What `backup` asks: the file taken, the copies listed, a file restored (the page's
/// upload; no console line carries one), the last change undone. A restore and an undo
/// write the files and restart the box.
public enum BackupJob: Sendable, Equatable {
    /// The box's backup; with a passphrase, its passwords too, sealed with it.
    case take(passphrase: String? = nil)
    case list
    /// A backup restored; a passphrase opens the passwords it holds sealed.
    case restore(text: String, passphrase: String? = nil)
    case undo
}

/// Why a console line was not understood, with what to type instead.
public struct ConsoleError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
