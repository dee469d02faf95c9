import DelayboxConfig
import DelayboxLog
import DelayboxNetwork
import DelayboxPlatform
import DelayboxState
import DelayboxUnits
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Looks after the box's Wi-Fi through NetworkManager (issue 60): opens the box's own
/// hotspot when it has had no network for a while, or when a hand on the box asks; lists
/// the networks in reach; joins the one a phone on the hotspot chose; tells the playout,
/// which says it aloud. Its thread runs nmcli, which may take tens of seconds to join a
/// network — never the playout's.
///
/// The box runs unprivileged: it reads NetworkManager's state with nmcli as any user may,
/// and asks root's Wi-Fi helper for each change (`WiFiHelper`, through `WiFiHelperLink`).
public final class WiFiKeeper: WiFiControl {
    /// Runs nmcli with `arguments`: the real one, or a test's.
    public typealias Runner = @Sendable (_ arguments: [String]) -> ChildProcess.Outcome
    /// Has root's helper carry out a change, waiting at most the time given: nil when done,
    /// else why not. The real one is `WiFiHelperLink.ask`, a test's a NetworkManager of its own.
    public typealias Helper = @Sendable (_ request: WiFiRequest, _ within: TimeAmount) -> String?

    private struct Shared: Sendable {
        var state: WiFiState
        var policy: HotspotPolicy
        var join: (ssid: String, password: String)?
        var closeAsked = false
        /// A new hotspot password asked for, kept and put in force by the thread.
        var newPassword: String?
        /// The networks the box joined to be forgotten (a factory reset asked it).
        var forgetAsked = false
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
    private let thread: WorkerThread
    private let nmcli: Runner
    private let helper: Helper
    private let clock: any MonotonicClock
    /// Where the box's own hotspot password is kept; nil: the installer's label password
    /// (`wifi.hotspot_password`) is in force, and the box's page cannot change it.
    private let passwordFile: HotspotPasswordFile?
    private let logger = Logger(label: "delaybox.wifi")

    public init(
        settings: WiFiSettings, identity: HotspotIdentity, passwordFile: HotspotPasswordFile?,
        clock: any MonotonicClock, nmcli: @escaping Runner = { ChildProcess.run("/usr/bin/nmcli", $0) },
        helper: Helper? = nil
    ) {
        self.passwordFile = passwordFile
        shared = Mutex(Shared(state: WiFiState(hotspot: identity), policy: HotspotPolicy(after: settings.hotspotAfter)))
        self.nmcli = nmcli
        let thread = WorkerThread(name: "delaybox-wifi")
        self.thread = thread
        if let helper {
            self.helper = helper
        } else {
            let link = WiFiHelperLink(directory: WiFiKeeper.runtimeDirectory, clock: clock)
            self.helper = { request, within in
                link.ask(request, within: within) { pause in
                    thread.wait(for: pause)
                    return !thread.isStopRequested
                }
            }
        }
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

    /// The service's runtime directory (systemd's `RUNTIME_DIRECTORY`), where root's helper
    /// looks for requests; nil outside the package's service.
    static var runtimeDirectory: String? {
        guard let value = getenv("RUNTIME_DIRECTORY").map({ String(cString: $0) }), !value.isEmpty else { return nil }
        return value
    }

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

    /// Forgets every network the box joined, then opens its hotspot: the start after a
    /// `factory reset --forget-wifi`. Carried out on the keeper's thread.
    public func forgetNetworks() {
        shared.withLock { $0.forgetAsked = true }
        thread.wake()
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
        if shared.withLock({ shared in
            defer { shared.forgetAsked = false }
            return shared.forgetAsked
        }) {
            forgetTheNetworks(device: device, now: now)
            return
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

    /// Every network the box joined forgotten through root's helper, then the hotspot opened
    /// (a phone joins it to give the box its network again).
    private func forgetTheNetworks(device: String, now: Instant) {
        if let problem = helper(.forgetNetworks, .seconds(60)) {
            logger.error("Wi-Fi: the networks joined could not be forgotten: \(problem)")
            return
        }
        logger.notice("Wi-Fi: the networks the box joined are forgotten (factory reset)")
        shared.withLock { $0.state.network = nil }
        openTheHotspot(device: device, reason: "its networks were forgotten (factory reset)", now: now)
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

    /// The networks in reach (NetworkManager's last scan; `rescan`: root's helper scans anew
    /// first, and is waited for), the box's own hotspot left out. While the hotspot is open
    /// its radio does not scan and the last scan's networks age out: an empty list then keeps
    /// the one before.
    private func refreshNetworks(device: String, rescan: Bool) {
        if rescan, let problem = helper(.scan(device: device), .seconds(30)) {
            logger.warning("Wi-Fi: no new scan: \(problem)")
        }
        let list = nmcli([
            "-t", "-f", "IN-USE,SSID,SIGNAL,SECURITY,CHAN", "device", "wifi", "list", "ifname", device, "--rescan",
            "no",
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
        let request = WiFiRequest.openHotspot(
            device: device, ssid: identity.ssid, channel: HotspotPolicy.channel(among: networks),
            password: identity.password)
        if let why = helper(request, .seconds(60)) {
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
        if let problem = helper(.closeHotspot, .seconds(30)) {
            logger.warning("Wi-Fi: closing the hotspot: \(problem)")
        }
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
        let event: WiFiEvent
        if let why = helper(.join(device: device, ssid: ssid, password: password), .seconds(75)) {
            event = .joinFailed(ssid, reason: why)
            logger.error("Wi-Fi: could not join '\(ssid)': \(why)")
        } else {
            event = .joined(ssid)
            logger.notice("Wi-Fi: joined '\(ssid)'")
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
