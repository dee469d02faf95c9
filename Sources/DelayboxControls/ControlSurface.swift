import DelayboxCommands
import DelayboxConfig
import DelayboxUnits

/// A command and when its input happened (the edge's kernel time).
public struct TimedCommand: Sendable, Equatable {
    public var command: Command
    public var time: Instant
    public init(_ command: Command, at time: Instant) {
        self.command = command
        self.time = time
    }
}

/// The front panel as the board config wires it: edges in, commands out. Buttons become
/// gestures and their actions; the encoder's detents adjust the delay (or, after a mode
/// toggle, the volume), accelerated by how fast it spins; tap-to-sync measures two taps.
/// Pure: time is the edges' own, and `advance(to:)` when nothing happens.
public struct ControlSurface: Sendable {
    /// The encoder's push switch's debounce: a button's default.
    public static let pushDebounce = TimeAmount.milliseconds(10)

    struct Button: Sendable {
        var settings: ButtonSettings
        var decoder: ButtonDecoder
    }

    /// How long a button held when the panel starts (held through power-on) must stay held
    /// for a factory reset: long enough that a button stuck by a case or leaned on for a
    /// moment does not reset a box, short enough that its owner holds on.
    public static let resetHold = TimeAmount.seconds(5)

    public var knobMode: ControlActions.KnobMode { actions.knobMode }
    private var actions: ControlActions
    private var buttons: [Int: Button] = [:]
    private var encoder: EncoderSettings?
    private var quadrature: QuadratureDecoder?
    private var levels: [Int: Bool]
    private var acceleration = KnobAcceleration()
    /// The buttons held when the panel started, and when that was: still all held at
    /// `resetHold` after, a factory reset. A release of any of them ends it.
    private var heldAtStart: (lines: Set<Int>, since: Instant)?

    /// - Parameter initialLevels: each input line's level at start (the knob rests in a
    ///   detent), by line.
    /// - Parameter taps: tap-to-sync's first tap, shared with the remote.
    /// - Parameter start: when the panel started (its lines' levels read): a button held
    ///   then and for `resetHold` after is a factory reset.
    public init(
        gpio: GPIOSettings, delayStep: TimeAmount, initialLevels: [Int: Bool], taps: TapPairing = TapPairing(),
        start: Instant = .zero
    ) {
        actions = ControlActions(delayStep: delayStep, taps: taps)
        levels = initialLevels
        for settings in gpio.buttons {
            buttons[settings.line] = Self.button(settings)
        }
        if let encoder = gpio.encoder {
            self.encoder = encoder
            quadrature = QuadratureDecoder(
                stepsPerDetent: encoder.stepsPerDetent, a: initialLevels[encoder.a] ?? true,
                b: initialLevels[encoder.b] ?? true)
            if let push = encoder.push {
                buttons[push] = Self.button(
                    ButtonSettings(
                        name: "encoder push", line: push, bias: encoder.bias, activeLow: true,
                        debounce: Self.pushDebounce, press: encoder.pushAction,
                        longPress: encoder.pushLongAction, doublePress: nil, hold: nil))
            }
        }
        let held = Set(buttons.filter { line, button in initialLevels[line] == !button.settings.activeLow }.keys)
        if !held.isEmpty { heldAtStart = (held, start) }
    }

    private static func button(_ settings: ButtonSettings) -> Button {
        var timing = ButtonDecoder.Timing()
        timing.debounce = settings.debounce
        return Button(
            settings: settings,
            decoder: ButtonDecoder(
                timing: timing, activeHigh: !settings.activeLow,
                detectsDoublePress: settings.doublePress != nil,
                repeatsWhileHeld: settings.hold != nil))
    }

    /// The input lines to watch.
    public var inputLines: [Int] {
        (Array(buttons.keys) + [encoder?.a, encoder?.b].compactMap { $0 }).sorted()
    }

    /// One edge; returns the commands it (and the time up to it) completes.
    public mutating func handle(_ edge: EdgeEvent) -> [TimedCommand] {
        var commands = advance(to: edge.time)
        levels[edge.line] = edge.high
        if let encoder, edge.line == encoder.a || edge.line == encoder.b, var decoder = quadrature {
            let detents = decoder.update(a: levels[encoder.a] ?? true, b: levels[encoder.b] ?? true)
            quadrature = decoder
            if detents != 0 { commands += turned(detents, at: edge.time) }
        } else if var button = buttons[edge.line] {
            // A button held since the start is let go: no reset, and no gesture either (its
            // decoder never saw it pressed).
            if let held = heldAtStart, held.lines.contains(edge.line), edge.high == button.settings.activeLow {
                heldAtStart = nil
            }
            let gestures = button.decoder.edge(high: edge.high, at: edge.time)
            buttons[edge.line] = button
            commands += gestures.flatMap { perform(button.settings, $0.0, at: $0.1) }
        }
        return commands
    }

    /// Lets time pass: debounces settle, long presses and repeats fire.
    public mutating func advance(to now: Instant) -> [TimedCommand] {
        var commands: [TimedCommand] = []
        if let held = heldAtStart, now >= held.since + Self.resetHold {
            heldAtStart = nil
            commands.append(TimedCommand(.factoryReset, at: held.since + Self.resetHold))
        }
        for line in buttons.keys.sorted() {
            guard var button = buttons[line] else { continue }
            let gestures = button.decoder.advance(to: now)
            buttons[line] = button
            commands += gestures.flatMap { perform(button.settings, $0.0, at: $0.1) }
        }
        return commands.sorted { $0.time < $1.time }
    }

    /// When `advance(to:)` next has something to do: the event loop's poll timeout.
    public var nextDeadline: Instant? {
        (buttons.values.compactMap(\.decoder.nextDeadline)
            + [heldAtStart.map { $0.since + Self.resetHold }].compactMap {
                $0
            }).min()
    }

    private mutating func turned(_ detents: Int, at time: Instant) -> [TimedCommand] {
        let multiplier = acceleration.multiplier(forDetentAt: time)
        switch knobMode {
        case .delay:
            return [
                TimedCommand(
                    .adjustDelay(milliseconds: Int64(detents) * actions.delayStep(multiplier: multiplier)),
                    at: time)
            ]
        case .volume:
            return [TimedCommand(.adjustVolume(steps: detents * (multiplier >= 5 ? 3 : 1)), at: time)]
        }
    }

    private mutating func perform(_ settings: ButtonSettings, _ gesture: ButtonDecoder.Gesture, at time: Instant)
        -> [TimedCommand]
    {
        let action: ControlAction? =
            switch gesture {
            case .press: settings.press
            case .longPress: settings.longPress
            case .doublePress: settings.doublePress
            case .repeatTick: settings.hold
            }
        guard let action, let command = actions.command(for: ControlBinding(action), at: time) else { return [] }
        return [TimedCommand(command, at: time)]
    }
}
