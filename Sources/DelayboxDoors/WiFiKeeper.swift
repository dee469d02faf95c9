import DelayboxConfig
import DelayboxLog
import DelayboxNetwork
import DelayboxPlatform
import DelayboxState
import DelayboxUnits
import Synchronization

/// Looks after the box's Wi-Fi through NetworkManager (issue 60): opens the box's own
/// hotspot when it has had no network for a while, or when a hand on the box asks; lists
/// the networks in reach; joins the one a phone on the hotspot chose; tells the playout,
/// which says it aloud. Its thread runs nmcli, which may take tens of seconds to join a
/// network — never the playout's.
///
/// The box runs unprivileged: the package's polkit rule lets the service's user ask
/// NetworkManager (deploy/debian/delaybox-wifi.rules).
public final class WiFiKeeper: Sendable {
    /// Runs nmcli with `arguments`: the real one, or a test's.
    public typealias Runner = @Sendable (_ arguments: [String]) -> ChildProcess.Outcome

    private struct Shared: Sendable {
        var state: WiFiState
        var policy: HotspotPolicy
        var join: (ssid: String, password: String)?
        var closeAsked = false
        /// A new hotspot password asked for, kept and put in force by the thread.
        var newPassword: String?
        var events: [WiFiEvent] = []
        /// nmcli could not run at the last look.
        var absent = false
    }

    /// How often NetworkManager is asked how the box's network is: while the box has none
    /// (the hotspot's wait, a phone on it, a join); while one works (nothing to do but notice
    /// it going: nmcli costs a Pi Zero tens of ms of CPU a call); on a board without
    /// NetworkManager (a spawn that fails each time is still a spawn beside the audio thread).
    static let intervals = (
        lost: TimeAmount.seconds(5), connected: TimeAmount.seconds(30), absent: TimeAmount.minutes(5)
    )
    private let shared: Mutex<Shared>
    private let thread = WorkerThread(name: "delaybox-wifi")
    private let nmcli: Runner
    private let clock: any MonotonicClock
    /// Where the box's own hotspot password is kept; nil: the installer's label password
    /// (`wifi.hotspot_password`) is in force, and the box's page cannot change it.
    private let passwordFile: HotspotPasswordFile?
    private let logger = Logger(label: "delaybox.wifi")

    public init(
        settings: WiFiSettings, identity: HotspotIdentity, passwordFile: HotspotPasswordFile?,
        clock: any MonotonicClock, nmcli: @escaping Runner = { ChildProcess.run("/usr/bin/nmcli", $0) }
    ) {
        self.passwordFile = passwordFile
        shared = Mutex(Shared(state: WiFiState(hotspot: identity), policy: HotspotPolicy(after: settings.hotspotAfter)))
        self.nmcli = nmcli
        self.clock = clock
    }

    public func start() {
        thread.start { [self] in
            while !thread.isStopRequested {
                tick(now: clock.now())
                thread.wait(for: nextLook)
            }
        }
    }

    public func stop() { thread.stop() }

    /// When to look again (`intervals`); asking to open or join wakes the thread at once.
    var nextLook: TimeAmount {
        shared.withLock {
            $0.absent
                ? Self.intervals.absent
                : $0.state.network != nil && !$0.policy.isOpen && $0.join == nil
                    ? Self.intervals.connected : Self.intervals.lost
        }
    }

    /// The Wi-Fi as last seen; asking counts as using an open hotspot (a phone on it is
    /// looking at the page).
    public func state() -> WiFiState {
        let now = clock.now()
        return shared.withLock {
            $0.policy.used(now: now)
            return $0.state
        }
    }

    /// What happened since the last call, oldest first.
    public func takeEvents() -> [WiFiEvent] {
        shared.withLock { shared in
            defer { shared.events.removeAll() }
            return shared.events
        }
    }

    /// A hand on the box asks for the hotspot; nil when it will open, else why not (a
    /// network works: the box says its address there instead).
    public func openHotspot() -> String? {
        let refusal: String? = shared.withLock {
            if let problem = $0.state.problem { return problem }
            if let network = $0.state.network {
                return "the box is on '\(network)': it opens no hotspot while a network works"
            }
            $0.policy.askToOpen()
            return nil
        }
        if refusal == nil { thread.wake() }
        return refusal
    }

    /// The hotspot's password from now on (checked by the caller: `WiFiCredentials`): kept
    /// by the thread beside the settings, and an open hotspot opened again with it. Nil when
    /// it will be, else why not.
    public func changeHotspotPassword(_ password: String) -> String? {
        guard passwordFile != nil else {
            return "this box's hotspot password is its board config's (wifi.hotspot_password, on its label): "
                + "change it there"
        }
        shared.withLock { $0.newPassword = password }
        thread.wake()
        return nil
    }

    /// Closes the hotspot (by hand).
    public func closeHotspot() {
        shared.withLock { $0.closeAsked = true }
        thread.wake()
    }

    /// Joins `ssid` (checked by the caller: `WiFiCredentials`): the hotspot closes, the box
    /// tries, and says how it went; a network it cannot join opens the hotspot again.
    public func join(ssid: String, password: String) -> String? {
        let refusal: String? = shared.withLock {
            if let problem = $0.state.problem { return problem }
            if let joining = $0.state.joining { return "the box is joining '\(joining)' now" }
            $0.join = (ssid, password)
            $0.state.joining = ssid
            return nil
        }
        if refusal == nil { thread.wake() }
        return refusal
    }

    /// One look at NetworkManager, and what the policy then says to do. The thread's
    /// loop; a test calls it in virtual time.
    func tick(now: Instant) {
        let changed = keepNewPassword()
        let devices = nmcli(["-t", "-f", "DEVICE,TYPE,STATE", "device"])
        shared.withLock { $0.absent = devices.status == nil }
        guard devices.status != nil else {
            // A board without NetworkManager (a host, Raspberry Pi OS before bookworm).
            setProblem("no NetworkManager here (nmcli cannot run): the box leaves its Wi-Fi alone", level: .notice)
            return
        }
        guard devices.status == 0 else {
            setProblem("NetworkManager does not answer: \(NetworkManagerText.errorText(devices.text))")
            return
        }
        guard let device = NetworkManagerText.wifiDevice(devices.text)?.device else {
            setProblem("no Wi-Fi device (NetworkManager lists none)")
            return
        }
        let active = nmcli(["-t", "-f", "NAME,TYPE,DEVICE,STATE", "connection", "show", "--active"])
        let connections = NetworkManagerText.activeConnections(active.status == 0 ? active.text : "")
        let working = NetworkManagerText.workingConnection(connections, hotspot: HotspotIdentity.connectionName)
        let hotspotUp = connections.contains { $0.name == HotspotIdentity.connectionName && $0.state == "activated" }
        let (join, closeAsked, wasOpen) = shared.withLock { shared in
            shared.state.problem = nil
            shared.state.device = device
            shared.state.network = working?.name
            // Opened before this process started (a restart while it was open), or taken down
            // by NetworkManager since (its radio failed): the state follows what is up.
            if hotspotUp, !shared.policy.isOpen {
                shared.policy.foundOpen(now: now)
                shared.state.hotspotOpen = true
                shared.state.hotspotReason = "open before the box restarted"
            } else if !hotspotUp, shared.policy.isOpen {
                shared.policy.closed(now: now)
                shared.state.hotspotOpen = false
                shared.state.hotspotReason = nil
                shared.events.append(.hotspotClosed(reason: "NetworkManager took it down"))
            }
            defer {
                shared.join = nil
                shared.closeAsked = false
            }
            return (shared.join, shared.closeAsked, shared.policy.isOpen)
        }
        if let join {
            joinNetwork(join.ssid, password: join.password, device: device, hotspotOpen: wasOpen, now: now)
            return
        }
        if closeAsked, wasOpen {
            closeTheHotspot(reason: "closed by hand", now: now)
            return
        }
        if changed, wasOpen {
            // A phone on the old password is let go; the one with the new one joins again.
            openTheHotspot(device: device, reason: "its password changed", now: now)
            return
        }
        refreshNetworks(device: device, rescan: false)
        switch shared.withLock({ $0.policy.step(networkWorks: working != nil, now: now) }) {
        case .open(let reason)?: openTheHotspot(device: device, reason: reason, now: now)
        case .close(let reason)?: closeTheHotspot(reason: reason, now: now, policyClosed: true)
        case nil: break
        }
    }

    /// A new password asked for, kept and in force; true when one was.
    private func keepNewPassword() -> Bool {
        guard
            let password = shared.withLock({ shared in
                defer { shared.newPassword = nil }
                return shared.newPassword
            }), let passwordFile
        else { return false }
        do {
            try passwordFile.store(password)
            logger.notice("Wi-Fi: the hotspot's password was changed (kept in \(passwordFile.path))")
        } catch {
            // Played with until the next start, which goes back to the one kept.
            logger.error("Wi-Fi: the hotspot's new password could not be kept (\(error)): it holds until a restart")
        }
        shared.withLock { $0.state.hotspot.password = password }
        return true
    }

    private func setProblem(_ problem: String, level: Logger.Level = .warning) {
        let changed = shared.withLock { shared in
            defer { shared.state.problem = problem }
            return shared.state.problem != problem
        }
        if changed { logger.log(level, "Wi-Fi: \(problem)") }
    }

    /// The networks in reach (NetworkManager's last scan; `rescan`: a new one, waited for),
    /// the box's own hotspot left out. While the hotspot is open its radio does not scan
    /// and the last scan's networks age out: an empty list then keeps the one before.
    private func refreshNetworks(device: String, rescan: Bool) {
        let list = nmcli([
            "-t", "-f", "IN-USE,SSID,SIGNAL,SECURITY,CHAN", "device", "wifi", "list", "ifname", device, "--rescan",
            rescan ? "yes" : "no",
        ])
        guard list.status == 0 else { return }
        shared.withLock { shared in
            let networks = NetworkManagerText.networks(list.text).filter { $0.ssid != shared.state.hotspot.ssid }
            if !networks.isEmpty || !shared.policy.isOpen { shared.state.networks = networks }
        }
    }

    private func openTheHotspot(device: String, reason: String, now: Instant) {
        // A radio serving a hotspot cannot scan: the list the page offers is this one.
        refreshNetworks(device: device, rescan: true)
        let (identity, networks) = shared.withLock { ($0.state.hotspot, $0.state.networks) }
        _ = nmcli(["connection", "delete", HotspotIdentity.connectionName])
        let opened = nmcli([
            "device", "wifi", "hotspot", "ifname", device, "con-name", HotspotIdentity.connectionName, "ssid",
            identity.ssid, "band", "bg", "channel", String(HotspotPolicy.channel(among: networks)), "password",
            identity.password,
        ])
        guard opened.status == 0 else {
            let why = NetworkManagerText.errorText(opened.text)
            shared.withLock { $0.policy.failedToOpen(now: now) }
            logger.error("Wi-Fi: the hotspot \(identity.ssid) did not open: \(why)")
            return
        }
        logger.notice("Wi-Fi: hotspot \(identity.ssid) open on \(device) (\(reason))")
        shared.withLock {
            $0.state.hotspotOpen = true
            $0.state.hotspotReason = reason
            $0.events.append(.hotspotOpened(reason: reason))
        }
    }

    private func closeTheHotspot(reason: String, now: Instant, policyClosed: Bool = false) {
        _ = nmcli(["connection", "down", HotspotIdentity.connectionName])
        logger.notice("Wi-Fi: hotspot closed (\(reason))")
        shared.withLock {
            if !policyClosed { $0.policy.closed(now: now) }
            $0.state.hotspotOpen = false
            $0.state.hotspotReason = nil
            $0.events.append(.hotspotClosed(reason: reason))
        }
    }

    private func joinNetwork(_ ssid: String, password: String, device: String, hotspotOpen: Bool, now: Instant) {
        if hotspotOpen { closeTheHotspot(reason: "joining '\(ssid)'", now: now) }
        refreshNetworks(device: device, rescan: true)
        var arguments = ["--wait", "45", "device", "wifi", "connect", ssid]
        if !password.isEmpty { arguments += ["password", password] }
        let joined = nmcli(arguments + ["ifname", device])
        let event: WiFiEvent
        if joined.status == 0 {
            event = .joined(ssid)
            logger.notice("Wi-Fi: joined '\(ssid)'")
        } else {
            let why = NetworkManagerText.errorText(joined.text)
            event = .joinFailed(ssid, reason: why)
            logger.error("Wi-Fi: could not join '\(ssid)': \(why)")
        }
        shared.withLock {
            $0.state.joining = nil
            switch event {
            case .joined:
                $0.state.network = ssid
                $0.state.lastJoin = "joined '\(ssid)'"
            case .joinFailed(_, let why):
                $0.state.lastJoin = "could not join '\(ssid)': \(why)"
                // Back to where a phone can try again.
                $0.policy.askToOpen()
            default: break
            }
            $0.events.append(event)
        }
        if case .joinFailed = event { thread.wake() }
    }
}
