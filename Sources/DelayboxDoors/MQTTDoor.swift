import DelayboxConfig
import DelayboxConsole
import DelayboxEngine
import DelayboxJSON
import DelayboxLog
import DelayboxMQTT
import DelayboxMosquitto
import DelayboxPlatform
import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The box on an MQTT broker (docs/mqtt.md): its status retained on `<prefix>/status` on
/// change and every 30 s, `online`/`offline` on `<prefix>/availability` (the broker's will
/// when the box vanishes), stream events on `<prefix>/event`, console lines taken from
/// `<prefix>/command` (and its group's) and answered on `<prefix>/reply`, and Home
/// Assistant's discovery messages. Commands go through the console inbox like a typed
/// line, so they are checked and carried out the same way. In a group, the box keeps its
/// release retained on the group's `release/<box>` topic and carries out an update in
/// stages (`update --canary BOX`): BOX updates at once, the others watch its release and
/// follow once it plays the new one (`StagedUpdate`). It also says every few seconds when it
/// took a run of the stream to have been live (`VenueFigure`) and hands the others' figures
/// to the playout, so that a room's boxes play as one (issue 58).
///
/// Threads: its own (`delaybox-mqtt`) does the work; libmosquitto's loop runs on another
/// (`mqtt-net`); the playout thread only drops notes in (`stateChanged`, `eventHeard`) —
/// nothing the playout or the audio does waits on the network.
final class MQTTDoor: Sendable {
    /// Commands waiting at most; more are dropped and counted (a flood).
    static let queueLimit = 64

    private struct Mail {
        var commands: [(line: [UInt8], group: Bool)] = []
        /// Group members' release reports: (their topic, the payload).
        var releases: [(topic: String, payload: [UInt8])] = []
        var events: [String] = []
        /// This box's latest venue figure, to publish.
        var venueFigure: String?
        /// Lines for every box of the group (`group delay`), to publish on its topic.
        var groupLines: [String] = []
        var dropped = 0
        /// Connected (again), or the config changed: `online` and discovery to send.
        var announce = false
        var changed = false
        var config: BoardConfig
    }

    let topics: MQTTTopics
    private let client: MosquittoClient
    private let inbox: ConsoleInbox
    private let version: String
    private let mail: Mutex<Mail>
    private let worker = WorkerThread(name: "delaybox-mqtt")
    private let logger = Logger(label: "delaybox.mqtt")
    /// The problems reported since the last connection: each is said once.
    private let reported = Mutex<Set<String>>([])
    private let broker: String
    /// The update in stages this box takes part in (`StagedRollout`).
    private let staging = Mutex(StagedRollout())
    /// The door's one clock: a stage's start and the ticks that measure the canary's
    /// patience against it must be on the same one. (A stage was once started on a clock
    /// made at the command, and ticked on the thread's, made at the start: a box up for
    /// longer than the patience held the others at once.)
    private let clock = SystemClock()
    /// libmosquitto's callbacks' way to this door, until it stops.
    private final class Relay: Sendable {
        let door = Mutex<MQTTDoor?>(nil)
    }
    private let relay = Relay()
    /// The group's venue figures heard, for the playout (at most `queueLimit`).
    private let venueFigures = Mutex<[VenueFigure]>([])
    /// The group's other boxes as last heard.
    private let roster = Mutex(GroupRoster())

    init(settings: MQTTSettings, config: BoardConfig, inbox: ConsoleInbox, version: String) throws {
        let topics = MQTTTopics(settings: settings, hostname: HostName.current())
        self.topics = topics
        self.inbox = inbox
        self.version = version
        mail = Mutex(Mail(config: config))
        broker = settings.brokerURL
        var options = MosquittoClient.Options(host: settings.host, port: settings.port, clientID: topics.clientID)
        options.username = settings.username
        options.password = settings.password?.revealed
        options.tls = settings.tls
        options.caFile = settings.caFile
        options.will = MosquittoClient.Message(topic: topics.availability, payload: "offline", retain: true)
        let relay = relay
        client = try MosquittoClient(options) { event in relay.door.withLock { $0 }?.received(event) }
        relay.door.withLock { $0 = self }
    }

    func start() {
        worker.start { [self] in run() }
        client.start()
    }

    /// The status changed (a command from any door, the engine's state): published soon.
    func stateChanged() {
        mail.withLock { $0.changed = true }
        worker.wake()
    }

    /// A stream event was heard (its JSON): published on `<prefix>/event`.
    func eventHeard(json: String) {
        mail.withLock { if $0.events.count < Self.queueLimit { $0.events.append(json) } }
        worker.wake()
    }

    /// This box's venue figure (its JSON): published on the group's `venue/<box>`.
    func venueFigure(json: String) {
        mail.withLock { $0.venueFigure = json }
        worker.wake()
    }

    /// Publishes `line` on the group's command topic, which every box of the group (this
    /// one too) carries out; false when the box is in no group or the broker is not
    /// connected now (nothing is kept to send later: a delay set late is a wrong one).
    func sayToGroup(_ line: String) -> Bool {
        guard topics.groupCommand != nil, client.isConnected else { return false }
        mail.withLock { if $0.groupLines.count < Self.queueLimit { $0.groupLines.append(line) } }
        worker.wake()
        return true
    }

    /// The other members' venue figures heard since the last call.
    func takeVenueFigures() -> [VenueFigure] {
        venueFigures.withLock { figures in
            defer { figures.removeAll(keepingCapacity: true) }
            return figures
        }
    }

    /// The config changed (channels, delay step): the discovery messages are sent again.
    func configChanged(_ config: BoardConfig) {
        mail.withLock { mail in
            mail.config = config
            mail.announce = true
        }
        worker.wake()
    }

    /// Says `offline`, disconnects and ends both threads.
    func stop() {
        worker.stop()
        client.stop(lastWords: MosquittoClient.Message(topic: topics.availability, payload: "offline", retain: true))
        relay.door.withLock { $0 = nil }
    }

    /// On libmosquitto's thread: note it and wake the worker; nothing here blocks.
    private func received(_ event: MosquittoClient.Event) {
        switch event {
        case .connected:
            reported.withLock { $0.removeAll() }
            logger.notice("MQTT: connected to \(broker) as \(topics.clientID), topics under \(topics.prefix)")
            mail.withLock { $0.announce = true }
            client.subscribe(topics.command)
            if let group = topics.groupCommand { client.subscribe(group) }
            if let releases = topics.memberReleases { client.subscribe(releases) }
            if let venues = topics.memberVenues { client.subscribe(venues) }
            if let members = topics.members { client.subscribe(members) }
            staging.withLock { $0.connected() }
        case .refused(let reason):
            report("the broker refused the connection: \(reason)", error: true)
        case .lost(let reason, let retry):
            report(reason, then: "; trying again in \(retry.milliseconds) ms (then up to every 30 s)", error: false)
        case .oversized(let topic, let bytes):
            report("a message of \(bytes) bytes on \(topic) was dropped unread: a command is a line", error: false)
            return
        case .message(let topic, let payload, _) where topic.hasPrefix((topics.groupPrefix ?? "\u{0}") + "/release/"):
            mail.withLock { mail in
                if mail.releases.count < Self.queueLimit {
                    mail.releases.append((topic, payload))
                } else {
                    mail.dropped += 1
                }
            }
        case .message(let topic, let payload, let retained)
        where topic.hasPrefix((topics.groupPrefix ?? "\u{0}") + "/venue/"):
            // A figure is news only, and a member speaks for itself on its own topic.
            guard !retained, let figure = VenueFigure.read(payload), figure.box != topics.clientID,
                topic == topics.memberVenue(of: figure.box)
            else { return }
            venueFigures.withLock { if $0.count < Self.queueLimit { $0.append(figure) } }
            return
        case .message(let topic, let payload, let retained)
        where topic.hasPrefix((topics.groupPrefix ?? "\u{0}") + "/member/"):
            // News only, and a member speaks for itself on its own topic.
            guard !retained, let member = GroupMember.read(payload), member.box != topics.clientID,
                topic == topics.member(member.box)
            else { return }
            let now = clock.now()
            roster.withLock { $0.heard(member, at: now) }
            return
        case .message(let topic, _, retained: true):
            // A command kept by the broker would be carried out again at every reconnect and
            // restart (a `delay 300` published once, a week ago): commands are news only.
            report(
                "a retained command on \(topic) is ignored (publish commands without retain; "
                    + "clear it: mosquitto_pub -r -n -t \(topic))", error: false)
            return
        case .message(let topic, let payload, retained: false):
            let group = topic != topics.command
            mail.withLock { mail in
                if mail.commands.count < Self.queueLimit {
                    mail.commands.append((payload, group))
                } else {
                    mail.dropped += 1
                }
            }
        }
        worker.wake()
    }

    /// A problem once until the next connection, not at every retry.
    private func report(_ problem: String, then detail: String = "", error: Bool) {
        guard reported.withLock({ $0.insert(problem).inserted }) else { return }
        let line = "MQTT \(broker): \(problem)\(detail)"
        if error { logger.error(line) } else { logger.warning(line) }
    }

    private func run() {
        var pacing = StatusPacing()
        var droppedReportedAt: Instant?
        while !worker.isStopRequested {
            let taken = mail.withLock { mail in
                defer {
                    (mail.commands, mail.releases, mail.events, mail.dropped, mail.announce, mail.changed) = (
                        [], [], [], 0, false, false
                    )
                    mail.venueFigure = nil
                    mail.groupLines = []
                }
                return mail
            }
            if taken.announce {
                announce(config: taken.config)
                pacing.reconnected()
            }
            if taken.changed { pacing.changed() }
            for payload in taken.events { client.publish(.init(topic: topics.event, payload: payload, retain: false)) }
            if let figure = taken.venueFigure, let topic = topics.memberVenue(of: topics.clientID) {
                client.publish(.init(topic: topic, payload: figure, retain: false))
            }
            if let topic = topics.groupCommand {
                for line in taken.groupLines { client.publish(.init(topic: topic, payload: line, retain: false)) }
            }
            // Releases first: those that came with a command were there before it.
            if follow(taken.releases, now: clock.now()) { pacing.changed() }
            if carryOut(taken.commands) { pacing.published(at: clock.now()) }
            // A new release line is news in the status too (`release`, a canary's `update`).
            if client.isConnected, publishRelease() { pacing.changed() }
            let now = clock.now()
            if taken.dropped > 0 {
                if droppedReportedAt.map({ now - $0 > .seconds(10) }) ?? true {
                    logger.warning("MQTT: \(taken.dropped) commands dropped: more than \(Self.queueLimit) were waiting")
                    droppedReportedAt = now
                }
            }
            if client.isConnected, pacing.isDue(at: now), let status = inbox.ask(ConsoleRequest(.status)),
                status.kind == .ok
            {
                publishStatus(status.fields)
                pacing.published(at: now)
            }
            // In a group, the release line is looked at every 2 s: a canary's verdict
            // reaches the others within that.
            let most: TimeAmount = topics.groupPrefix == nil ? .seconds(30) : .seconds(2)
            let wait = client.isConnected ? min(most, max(.milliseconds(1), pacing.wait(from: clock.now()))) : most
            worker.wait(for: wait)
        }
    }

    /// `online`, the discovery messages, and the status at once.
    private func announce(config: BoardConfig) {
        client.publish(.init(topic: topics.availability, payload: "online", retain: true))
        for message in HomeAssistantDiscovery(topics: topics, config: config, version: version).messages {
            client.publish(.init(topic: message.topic, payload: message.payload, retain: true))
        }
    }

    /// The commands taken: each refused with its reason, or asked of the playout thread —
    /// all of them, and the status after them, answered at its next wake-up — the answers
    /// on `reply` and the status published. True when the status was published.
    private func carryOut(_ commands: [(line: [UInt8], group: Bool)]) -> Bool {
        var asked: [(line: String, request: ConsoleRequest, pending: ConsoleInbox.Pending)] = []
        for command in commands {
            guard let taken = request(command.line, group: command.group) else { continue }
            let line = taken.line
            var request = taken.request
            if case .stagedUpdate(let canary, let now) = request.action {
                guard let own = stage(after: canary, now: now, line: line) else { continue }
                request = own
            }
            asked.append((line, request, inbox.post(request) ?? ConsoleInbox.stopped(request)))
        }
        guard !asked.isEmpty, let status = inbox.post(ConsoleRequest(.status)) else { return false }
        for (line, request, pending) in asked {
            let answer = pending.wait(seconds: request.patienceSeconds) ?? ConsoleInbox.notAnswered(request)
            // The answer's own fields, `command` added; a refusal's reason as `error`.
            let fields: JSONValue =
                if let reason = answer.reason { .init(encoding: MQTTReply(command: line, error: reason)) } else {
                    .object([.init(key: "command", value: .string(line))] + answer.fields.members)
                }
            client.publish(.init(topic: topics.reply, payload: JSONText.encode(fields), retain: false))
        }
        guard let reply = status.wait(seconds: 2), reply.kind == .ok, client.isConnected else { return false }
        publishStatus(reply.fields)
        return true
    }

    /// The group's other boxes as last heard, each with the seconds since; nil when this box
    /// is in no group.
    func groupMembers() -> [(member: GroupMember, heardSecondsAgo: Int)]? {
        guard topics.groupPrefix != nil else { return nil }
        let now = clock.now()
        return roster.withLock { $0.members(at: now) }
    }

    /// The status, with the update in stages this box takes part in (`update`); in a group,
    /// this box's `GroupMember` report too.
    private func publishStatus(_ status: JSONValue) {
        if let topic = topics.member(topics.clientID), let state = status["state"]?.string,
            let channel = status["channel"]?.string, let delay = status["delay_ms"]?.integer
        {
            let member = GroupMember(
                box: topics.clientID, state: state, channel: channel, delay: .milliseconds(delay), release: version)
            client.publish(.init(topic: topic, payload: member.json, retain: false))
        }
        let role = staging.withLock { ($0.waiting?.summary, $0.isCanary) }
        let note = role.0 ?? (role.1 ? "canary: " + (ReleaseStatus.read() ?? "updating first") : nil)
        let fields = note.map { [.init(key: "update", value: .string($0))] + status.members } ?? status.members
        client.publish(.init(topic: topics.status, payload: JSONText.encode(.object(fields)), retain: true))
    }

    /// `update --canary BOX`: this box's own update when it is BOX (the request to carry
    /// out), else the wait for BOX's verdict begins (answered here; nil).
    private func stage(after canary: String, now atOnce: Bool, line: String) -> ConsoleRequest? {
        guard topics.groupPrefix != nil else {
            reply(command: line, error: "an update in stages is for a box in a group (mqtt.group); this box: update")
            return nil
        }
        if canary == topics.clientID {
            staging.withLock { $0.becomeCanary(atOnce: atOnce) }
            logger.notice("MQTT: update in stages: this box is the canary, updating first")
            // Naming each box in turn must not restart a venue mid-match: the release starts
            // in the box's update window or once it is quiet, unless the manager says --now.
            return ConsoleRequest(.update(version: nil, later: !atOnce), json: true, door: .group)
        }
        // A canary is a member whose release report this box has heard.
        let topic = topics.memberRelease(of: canary), now = clock.now()
        guard let stage = staging.withLock({ $0.wait(for: canary, reportsOn: topic, atOnce: atOnce, now: now) }) else {
            reply(
                command: line,
                error: "'\(canary)' is not a box of this group that this box has heard from: "
                    + "a canary is a member (its release report on \(topics.memberRelease(of: canary) ?? "the group"))")
            return nil
        }
        logger.notice("MQTT: update in stages: waiting for canary \(canary) to play a new release")
        client.publish(
            .init(
                topic: topics.reply,
                payload: JSONText.encode(answer: MQTTReply(command: line, result: "ok", update: stage.summary)),
                retain: false))
        return nil
    }

    /// The group's release reports heard, and the time passing, for the canary this box
    /// waits for: once it plays a new release this box asks for exactly that version; a
    /// canary gone wrong holds it. True when the box's `update` changed.
    private func follow(_ releases: [(topic: String, payload: [UInt8])], now: Instant) -> Bool {
        guard
            let (before, after) = staging.withLock({
                $0.follow(releases, canaryTopic: { topics.memberRelease(of: $0) }, now: now)
            }), after != before
        else { return false }
        switch after {
        case .waiting(let last): logger.info("MQTT: update in stages: \(last)")
        case .held(let reason): logger.warning("MQTT: update in stages held, this box stays on \(version): \(reason)")
        case .go(let played):
            let version = StagedUpdate.release(played, forBoxRunning: self.version)
            logger.notice("MQTT: update in stages: the canary plays \(played); updating to \(version)")
            let later = !staging.withLock(\.atOnce)
            let request = ConsoleRequest(.update(version: version, later: later), door: .group)
            let answer = inbox.ask(request) ?? ConsoleInbox.notAnswered(request)
            if let reason = answer.reason { logger.error("MQTT: update in stages: \(reason)") }
        }
        return true
    }

    /// This box's release on the group's topic, retained, when it changed (or after a
    /// reconnection): what the others read when this box is their canary. True when it did.
    private func publishRelease() -> Bool {
        guard let topic = topics.memberRelease(of: topics.clientID) else { return false }
        let mine = MemberRelease(box: topics.clientID, version: version, release: ReleaseStatus.read() ?? "")
        guard staging.withLock({ $0.publishes(mine) }) else { return false }
        client.publish(.init(topic: topic, payload: mine.json, retain: true))
        return true
    }

    /// A payload as a console request, or nil when it was refused (the reason
    /// is on `reply`).
    private func request(_ payload: [UInt8], group: Bool) -> (line: String, request: ConsoleRequest)? {
        let line: String
        switch MQTTCommandLine.parse(payload, group: group) {
        case .failure(let refusal):
            reply(command: nil, error: refusal.description)
            return nil
        case .success(let text): line = text
        }
        // A broker's clients are not the box's owner at its console; a group's topic carries
        // less still.
        switch NetworkDoorPolicy.admit(line, door: group ? .group : .mqtt) {
        case .empty: return nil
        case .unreadable(let error):
            reply(command: line, error: error.description)
            return nil
        case .refused(let refusal):
            reply(command: line, error: refusal)
            return nil
        case .admitted(let request): return (line, request)
        }
    }

    private func reply(command: String?, error: String) {
        client.publish(
            .init(
                topic: topics.reply, payload: JSONText.encode(answer: MQTTReply(command: command, error: error)),
                retain: false))
    }
}
