import DelayboxCommands
import DelayboxConfig
import DelayboxUnits

/// A remote control's keys as the board config maps them: key events in, commands out.
/// A press does its action at once; a key that also has a long press does its press when
/// it comes up early, its long press once held for `RemoteKey.longPressHold`. A held delay
/// or volume key repeats with the kernel's autorepeat, and the delay's steps grow the
/// longer it is held, as the knob's do the faster it spins: from the base step after
/// `accelerationStart` to ten times it (at most 1 s a step) at `accelerationFull`.
/// Pure: time is the events' own, and `advance(to:)` when nothing happens.
public struct RemoteKeys: Sendable {
    /// Held this long, the delay still moves by its base step.
    public static let accelerationStart = TimeAmount.seconds(1)
    /// Held this long, it moves by ten steps.
    public static let accelerationFull = TimeAmount.seconds(3)
    /// Held this long, a key with a long press does it.
    static let longPress = RemoteKey.longPressHold
    /// Held this long, the key whose long press says where the box is (`say_address`, the
    /// owner's "hand on the box") resets it to its factory settings: it said the box's
    /// address at a second, and goes on to the reset only for a hand that keeps holding.
    public static let resetHold = TimeAmount.seconds(10)

    private struct Held: Sendable {
        var key: RemoteKey
        var since: Instant
        var longPressDone = false
        var resetDone = false

        /// When this hold becomes a factory reset; nil: it does not.
        var resetDue: Instant? {
            key.longPress?.action == .sayAddress && !resetDone ? since + RemoteKeys.resetHold : nil
        }
    }

    private let keys: [Int: RemoteKey]
    private var actions: ControlActions
    private var held: [Int: Held] = [:]

    /// - Parameter taps: tap-to-sync's first tap, shared with the front panel.
    public init(remote: RemoteSettings, delayStep: TimeAmount, taps: TapPairing = TapPairing()) {
        keys = Dictionary(remote.keys.map { ($0.code, $0) }) { first, _ in first }
        actions = ControlActions(delayStep: delayStep, taps: taps)
    }

    /// The codes the remote acts on.
    public var codes: [Int] { keys.keys.sorted() }

    /// One key event; returns the commands it (and the time up to it) completes.
    public mutating func handle(_ event: KeyEvent) -> [TimedCommand] {
        if event.change == .eventsLost {
            // A release may have been among them: no key counts as held any more, so none
            // fires a long press it was not held for (a key still down repeats, and its
            // repeats start a hold again).
            held.removeAll()
            return []
        }
        var commands = advance(to: event.time)
        guard let key = keys[event.code] else { return commands }
        switch event.change {
        case .press:
            held[key.code] = Held(key: key, since: event.time)
            if key.longPress == nil { commands += fire(key.press, at: event.time) }
        case .repeatWhileHeld:
            // A repeat whose press was missed (the device opened while the key was down)
            // starts a hold of its own.
            guard let hold = held[key.code] else {
                held[key.code] = Held(key: key, since: event.time)
                return commands
            }
            if key.longPress == nil, let press = key.press {
                commands += repeated(press, heldFor: event.time - hold.since, at: event.time)
            }
        case .release:
            if let hold = held.removeValue(forKey: key.code), key.longPress != nil, !hold.longPressDone {
                commands += fire(key.press, at: event.time)
            }
        case .eventsLost: break
        }
        return commands
    }

    /// Lets time pass: long presses fire, and a factory reset for the address key held on.
    public mutating func advance(to now: Instant) -> [TimedCommand] {
        var commands: [TimedCommand] = []
        for code in held.keys.sorted() {
            guard var hold = held[code], let due = hold.resetDue, now >= due else { continue }
            hold.resetDone = true
            held[code] = hold
            commands.append(TimedCommand(.factoryReset, at: due))
        }
        for code in held.keys.sorted() {
            guard var hold = held[code], let longPress = hold.key.longPress, !hold.longPressDone else { continue }
            let due = hold.since + Self.longPress
            guard now >= due else { continue }
            hold.longPressDone = true
            held[code] = hold
            commands += fire(longPress, at: due)
        }
        return commands
    }

    /// When `advance(to:)` next has something to do: the event loop's poll timeout.
    public var nextDeadline: Instant? {
        let longPresses = held.values.filter { $0.key.longPress != nil && !$0.longPressDone }.map {
            $0.since + Self.longPress
        }
        return (longPresses + held.values.compactMap(\.resetDue)).min()
    }

    private mutating func fire(_ binding: ControlBinding?, at time: Instant) -> [TimedCommand] {
        guard let binding, let command = actions.command(for: binding, at: time) else { return [] }
        return [TimedCommand(command, at: time)]
    }

    /// A delay or volume key's autorepeat; other actions (play/pause, a preset, a tap) do
    /// not repeat.
    private func repeated(_ binding: ControlBinding, heldFor: TimeAmount, at time: Instant) -> [TimedCommand] {
        let position =
            (heldFor - Self.accelerationStart).seconds / (Self.accelerationFull - Self.accelerationStart).seconds
        let step = actions.delayStep(multiplier: KnobAcceleration.multiplier(at: position, max: 10))
        let command: Command? =
            switch binding.action {
            case .delayUp: .adjustDelay(milliseconds: step)
            case .delayDown: .adjustDelay(milliseconds: -step)
            case .volumeUp: .adjustVolume(steps: ControlActions.volumeStep)
            case .volumeDown: .adjustVolume(steps: -ControlActions.volumeStep)
            default: nil
            }
        return command.map { [TimedCommand($0, at: time)] } ?? []
    }
}
