/// Which network doors may carry a command's requests — the page (its owner, logged in),
/// MQTT (a broker's clients), a venue group's topic (every box of the venue) — declared by
/// each command (`ConsoleCommand.doors`, no default), so that no command reaches the LAN
/// or a broker because nobody thought of it. The box's own doors (serial console,
/// delayboxctl, the panel) carry every command. docs/security.md, "What a neighbour on the
/// LAN can do".
public struct DoorPolicy: Sendable {
    /// Nil when the page or MQTT may carry the action; else why not, saying where it is done.
    private let network: @Sendable (ConsoleRequest.Action, NetworkDoorPolicy.Door) -> String?
    /// Whether a venue group's topic carries the action to every box of the venue.
    private let group: @Sendable (ConsoleRequest.Action) -> Bool

    init(
        network: @escaping @Sendable (ConsoleRequest.Action, NetworkDoorPolicy.Door) -> String?,
        group: @escaping @Sendable (ConsoleRequest.Action) -> Bool
    ) {
        (self.network, self.group) = (network, group)
    }

    /// Nil when `door` may carry `action`; else the refusal, in the console's words.
    func refusal(_ action: ConsoleRequest.Action, door: NetworkDoorPolicy.Door) -> String? {
        switch door {
        case .group: group(action) ? nil : NetworkDoorPolicy.groupCommands
        case .page, .mqtt: network(action, door)
        }
    }

    /// What a listener asks or changes: the page and MQTT carry it, a group's topic does not.
    static let listener = DoorPolicy(network: { _, _ in nil }, group: { _ in false })

    /// What a listener asks or changes, and what of it every screen of a venue agrees on:
    /// a group's topic carries the actions `carried` says.
    static func venue(_ carried: @escaping @Sendable (ConsoleRequest.Action) -> Bool) -> DoorPolicy {
        DoorPolicy(network: { _, _ in nil }, group: carried)
    }

    /// The page's owner's, never a broker's client's: MQTT is told `elsewhere`.
    static func pageOnly(elsewhere: String) -> DoorPolicy {
        DoorPolicy(network: { _, door in door == .page ? nil : elsewhere }, group: { _ in false })
    }

    /// The box's own doors' only: the page and MQTT are told where it is done.
    static func boxOnly(page: String, mqtt: String) -> DoorPolicy {
        DoorPolicy(network: { _, door in door == .page ? page : mqtt }, group: { _ in false })
    }

    /// Decided on the request's arguments (a key, a link): `refusal` for the page and MQTT,
    /// never a group's topic.
    static func byArguments(
        _ refusal: @escaping @Sendable (ConsoleRequest.Action, NetworkDoorPolicy.Door) -> String?
    ) -> DoorPolicy {
        DoorPolicy(network: refusal, group: { _ in false })
    }
}
