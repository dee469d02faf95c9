import DelayboxCommands
import DelayboxConfig
import DelayboxControls
import DelayboxLog
import DelayboxMQTT
import DelayboxNetwork
import DelayboxPlatform
import DelayboxSerial
import DelayboxState
import DelayboxWiFi

/// The ways in, each on its own thread: the front panel (buttons, encoder, LEDs), the
/// remote, the serial console, the control socket, MQTT and the web page. The panel and the remote post
/// commands (`drain`); the console and the socket post questions to the `ConsoleInbox`.
/// A door that cannot open is reported and left out: the box plays on without it.
///
/// Threads: made, restarted, drained and stopped by the playout thread.
public final class Doors {
    /// The front panel, when the board has one and it started (`gpio`).
    public private(set) var panel: FrontPanel?
    /// The remote's thread, when the board has one (`remote`).
    public private(set) var remote: RemoteReceiver?
    private var console: SerialConsole?
    private var socket: ControlSocket?
    private var mqtt: MQTTDoor?
    private var web: WebDoor?
    /// The box's Wi-Fi (NetworkManager), when the board has `wifi:`.
    public private(set) var wifi: WiFiKeeper?
    private let inbox: ConsoleInbox
    /// Tap-to-sync's first tap, shared by the panel and the remote: one tap on each pairs.
    private let taps = TapPairing()
    private let version: String
    /// Where the box's own hotspot password is kept (beside the settings); nil: made anew
    /// each run (`delaybox play`, which has no settings).
    private let hotspotPasswordFile: HotspotPasswordFile?
    private let logger = Logger(label: "delaybox.controls")
    private let consoleLogger = Logger(label: "delaybox.console")

    /// Opens every door `config` has; the console and the socket answer through `inbox`.
    /// - Parameters:
    ///   - socketPath: the control socket for `delayboxctl`; nil: none.
    ///   - version: the firmware's version, for the console's greeting.
    ///   - hotspotPasswordFile: where the hotspot's own password is kept.
    public init(
        config: BoardConfig, inbox: ConsoleInbox, socketPath: String?, version: String,
        hotspotPasswordFile: HotspotPasswordFile? = nil
    ) {
        self.inbox = inbox
        self.version = version
        self.hotspotPasswordFile = hotspotPasswordFile
        panel = startFrontPanel(config)
        remote = startRemote(config)
        console = startConsole(config, inbox: inbox, version: version)
        socket = socketPath.flatMap { startControlSocket(path: $0, inbox: inbox) }
        mqtt = startMQTT(config)
        web = startWeb(config)
        wifi = startWiFi(config)
    }

    /// What the status shows changed (a command took effect, the engine's state): MQTT
    /// publishes it, open pages show it.
    public func stateChanged() {
        mqtt?.stateChanged()
        web?.stateChanged()
    }

    /// A stream event was heard (a JSON object: what, where in the stream, when heard):
    /// MQTT publishes it.
    public func eventHeard(json: String) { mqtt?.eventHeard(json: json) }

    /// The box's name in its MQTT group, when it is in one: it then plays as one with the
    /// group's other boxes in the room (issue 58).
    public var venueMember: String? { mqtt.flatMap { $0.topics.groupPrefix == nil ? nil : $0.topics.clientID } }

    /// Sends `line` (a `delay` or `channel` line) to every box of this box's group, this one
    /// too; nil when it is on its way, else why not.
    public func sayToGroup(_ line: String) -> String? {
        guard let mqtt, mqtt.topics.groupPrefix != nil else { return MQTTTopics.inNoGroup }
        return mqtt.sayToGroup(line) ? nil : "the MQTT broker is not connected now: nothing was sent (docs/mqtt.md)"
    }

    /// The group's other boxes as last heard, each with the seconds since; nil when this box
    /// is in no group.
    public func groupMembers() -> [(member: GroupMember, heardSecondsAgo: Int)]? { mqtt?.groupMembers() }

    /// Says this box's venue figure to the group.
    public func venueFigure(_ figure: VenueFigure) { mqtt?.venueFigure(json: figure.json) }

    /// The group's other boxes' venue figures heard since the last call.
    public func takeVenueFigures() -> [VenueFigure] { mqtt?.takeVenueFigures() ?? [] }

    /// The commands the panel and the remote decoded since the last call.
    public func drain() -> [TimedCommand] { (panel?.drain() ?? []) + (remote?.drain() ?? []) }

    /// Shows the engine's state on the panel's LED.
    public func show(_ pattern: LEDPattern) { panel?.show(pattern) }

    /// Writes a line (a stream event, a state change) to the serial console.
    public func show(_ line: String) { console?.show(line) }

    /// A config replaced `before`: the panel's and the remote's lines are requested again
    /// when theirs or the delay step changed.
    public func configChanged(from before: BoardConfig, to config: BoardConfig) {
        if (before.gpio, before.defaults.delayStep) != (config.gpio, config.defaults.delayStep) {
            panel?.stop()
            panel = startFrontPanel(config)
        }
        if before.remote != config.remote || before.defaults.delayStep != config.defaults.delayStep {
            remote?.stop()
            remote = startRemote(config)
        }
        if before.web != config.web {
            web?.stop()
            web = startWeb(config)
        }
        if before.wifi != config.wifi {
            wifi?.stop()
            wifi = startWiFi(config)
        }
        if before.mqtt != config.mqtt {
            mqtt?.stop()
            mqtt = startMQTT(config)
        } else if before != config {
            mqtt?.configChanged(config)
        }
    }

    public func stop() {
        wifi?.stop()
        web?.stop()
        mqtt?.stop()
        socket?.stop()
        console?.stop()
        remote?.stop()
        panel?.stop()
    }

    private func startFrontPanel(_ config: BoardConfig) -> FrontPanel? {
        guard let gpio = config.gpio else { return nil }
        let panel = FrontPanel(gpio: gpio, delayStep: config.defaults.delayStep, taps: taps, ring: inbox.ring)
        do {
            try panel.start()
            return panel
        } catch {
            logger.error("\(error); playing without the front panel (the console still works)")
            return nil
        }
    }

    /// The remote finds its device when it appears.
    private func startRemote(_ config: BoardConfig) -> RemoteReceiver? {
        guard let settings = config.remote else { return nil }
        do {
            let remote = try RemoteReceiver(
                remote: settings, delayStep: config.defaults.delayStep, taps: taps, ring: inbox.ring)
            remote.start()
            return remote
        } catch {
            logger.error("remote: \(error); playing without the remote")
            return nil
        }
    }

    /// The serial console, or on a host a pseudo-terminal whose path is logged.
    private func startConsole(_ config: BoardConfig, inbox: ConsoleInbox, version: String) -> SerialConsole? {
        guard let settings = config.console else { return nil }
        do {
            let port =
                settings.device == "pty"
                ? try SerialPort(pseudoTerminal: ()) : try SerialPort(device: settings.device, baud: settings.baud)
            let console = SerialConsole(
                port: port, inbox: inbox, channels: config.channels.channels.map(\.name), version: version)
            console.start()
            consoleLogger.notice(
                "console on \(port.path) (\(settings.baud) 8N1): picocom -b \(settings.baud) \(port.path)")
            return console
        } catch {
            consoleLogger.error("\(error); playing without the serial console")
            return nil
        }
    }

    /// The Wi-Fi's keeper: named for the box, its hotspot's password the config's (the
    /// label's) or the box's own, random, made at its first start (docs/web.md, "When the
    /// box is lost").
    private func startWiFi(_ config: BoardConfig) -> WiFiKeeper? {
        guard let settings = config.wifi else { return nil }
        let file = settings.hotspotPassword == nil ? hotspotPasswordFile : nil
        var password = settings.hotspotPassword?.revealed ?? HotspotPasswordFile.make()
        if let file {
            do {
                password = try file.readOrMake()
            } catch {
                logger.error(
                    "Wi-Fi: the hotspot's password cannot be kept in \(file.path) (\(error)): a new one this run")
            }
        }
        let identity = HotspotIdentity(boxName: HostName.current(), password: password)
        let keeper = WiFiKeeper(settings: settings, identity: identity, passwordFile: file, clock: SystemClock())
        keeper.start()
        return keeper
    }

    private func startMQTT(_ config: BoardConfig) -> MQTTDoor? {
        guard let settings = config.mqtt else { return nil }
        do {
            let door = try MQTTDoor(settings: settings, config: config, inbox: inbox, version: version)
            door.start()
            logger.info("MQTT: \(settings.brokerURL) as \(door.topics.clientID), topics under \(door.topics.prefix)")
            return door
        } catch {
            logger.error("MQTT: \(error); playing without MQTT")
            return nil
        }
    }

    /// The page, when the config has `web:` and the inbox knows the password's place; a
    /// port it cannot have is said and left out.
    private func startWeb(_ config: BoardConfig) -> WebDoor? {
        guard let settings = config.web, let access = inbox.web else { return nil }
        do {
            let door = try WebDoor(port: settings.port, inbox: inbox, access: access)
            let byNumber = PageLinks.link(port: door.port, addresses: SystemFigures.read().addresses)
            logger.notice(
                "web page on \(PageLinks.byName(port: door.port))\(byNumber.map { " and \($0)" } ?? "") (port \(door.port))"
            )
            // Served once said: a page that answered before the log said where it is (the
            // addresses read under load) left the journal behind what a phone already saw.
            door.start()
            return door
        } catch {
            logger.error("web page: \(error); playing without it")
            return nil
        }
    }

    private func startControlSocket(path: String, inbox: ConsoleInbox) -> ControlSocket? {
        do {
            let socket = try ControlSocket(path: path, inbox: inbox)
            socket.start()
            consoleLogger.info("control socket on \(path)")
            return socket
        } catch {
            consoleLogger.error("\(error); delayboxctl cannot reach this box")
            return nil
        }
    }
}
