import DelayboxCommands
import DelayboxConfig
import DelayboxControls
import DelayboxEngine
import DelayboxTestSupport
import DelayboxUnits
import Testing

@Suite(.timeLimit(.minutes(10))) struct ControlSurfaceTests {
    /// The Pi boards' front panel (board-configs/base.yaml).
    static let panel = GPIOSettings(
        chip: "gpiochip0",
        buttons: [
            ButtonSettings(name: "play", line: 17, press: .playPause, longPress: .jumpToLive),
            ButtonSettings(name: "preset", line: 27, press: .presetRecall, longPress: .presetSave),
            ButtonSettings(name: "tap", line: 22, press: .tapSync),
        ],
        encoder: EncoderSettings(a: 5, b: 6, push: 13, pushAction: .modeToggle, pushLongAction: .mute),
        leds: [])

    func surface() -> ControlSurface {
        ControlSurface(
            gpio: Self.panel, delayStep: .milliseconds(100),
            initialLevels: [5: true, 6: true, 13: true, 17: true, 22: true, 27: true])
    }

    /// Presses (active low, bouncy) the button on `line` from `down` ms for `length` ms.
    func press(_ line: Int, at down: Int64, for length: Int64) -> [EdgeEvent] {
        [
            EdgeEvent(line: line, high: false, at: .milliseconds(down)),
            EdgeEvent(line: line, high: true, at: .milliseconds(down) + .microseconds(300)),
            EdgeEvent(line: line, high: false, at: .milliseconds(down) + .microseconds(600)),
            EdgeEvent(line: line, high: true, at: .milliseconds(down + length)),
        ]
    }

    func run(_ surface: inout ControlSurface, _ edges: [EdgeEvent], until end: Int64) -> [TimedCommand] {
        edges.sorted { $0.time < $1.time }.flatMap { surface.handle($0) } + surface.advance(to: .milliseconds(end))
    }

    @Test func slowDetentsStepByTheConfiguredStepAndFastSpinsUpToASecond() {
        var controls = surface()
        var slow = EdgeTimeline(a: 5, b: 6)
        slow.detents(3, direction: 1, step: .milliseconds(60), bounce: true)  // 240 ms per detent
        #expect(
            run(&controls, slow.edges, until: 2_000).map(\.command)
                == Array(repeating: .adjustDelay(milliseconds: 100), count: 3))
        var fast = EdgeTimeline(a: 5, b: 6)
        fast.now = .milliseconds(5_000)
        fast.detents(6, direction: -1, step: .milliseconds(2))  // 8 ms per detent
        let steps = run(&controls, fast.edges, until: 6_000).map(\.command)
        #expect(steps.first == .adjustDelay(milliseconds: -100), "the first detent of a spin is a slow one")
        #expect(steps.dropFirst().allSatisfy { $0 == .adjustDelay(milliseconds: -1_000) }, "\(steps)")
    }

    @Test func acceleratesSmoothlyWithTheSpeed() {
        var acceleration = KnobAcceleration()
        var multipliers: [Double] = []
        var now = Instant.zero
        for interval in stride(from: 200, through: 20, by: -20) {
            now = now + .milliseconds(Int64(interval))
            multipliers.append(acceleration.multiplier(forDetentAt: now))
        }
        #expect(multipliers.first == 1 && multipliers.last == 10)
        #expect(zip(multipliers, multipliers.dropFirst()).allSatisfy { $0 <= $1 }, "\(multipliers)")
    }

    @Test func thePushTogglesTheKnobToVolumeAndBack() {
        var controls = surface()
        var commands = run(&controls, press(13, at: 100, for: 120), until: 500)
        #expect(commands.map(\.command) == [.toggleKnobMode] && controls.knobMode == .volume)
        var turn = EdgeTimeline(a: 5, b: 6)
        turn.now = .milliseconds(1_000)
        turn.detents(2, direction: 1, step: .milliseconds(60))
        commands = run(&controls, turn.edges, until: 3_000)
        #expect(commands.map(\.command) == [.adjustVolume(steps: 1), .adjustVolume(steps: 1)])
        commands = run(&controls, press(13, at: 4_000, for: 1_000), until: 6_000)
        #expect(commands.map(\.command) == [.toggleMute], "a long push mutes; the mode stays")
    }

    @Test func tapToSyncAddsTheTimeBetweenTheTaps() {
        var controls = surface()
        let commands = run(&controls, press(22, at: 1_000, for: 80) + press(22, at: 4_250, for: 80), until: 6_000)
        #expect(commands.map(\.command) == [.syncDelay(milliseconds: 3_250)])
        var sync = TapSync()
        #expect(
            sync.tap(at: .zero) == nil && sync.tap(at: .milliseconds(61_000)) == nil,
            "a first tap left alone a minute is forgotten")
        #expect(sync.tap(at: .milliseconds(62_000)) == 1_000)
    }

    /// Two inputs, one for the radio's moment and one for the TV's, in either order: the
    /// delay moves up when the TV came second, down when it came first.
    @Test func tapToSyncBothWaysMovesTheDelayUpOrDown() {
        var sync = TapSync()
        #expect(sync.heard(at: .milliseconds(1_000)) == nil && sync.isWaiting)
        #expect(sync.seen(at: .milliseconds(3_500)) == 2_500, "the TV after the radio: more delay")
        #expect(sync.seen(at: .milliseconds(10_000)) == nil)
        #expect(sync.heard(at: .milliseconds(11_200)) == -1_200, "the TV first: less delay")
        #expect(!sync.isWaiting)
        #expect(
            sync.seen(at: .milliseconds(20_000)) == nil && sync.heard(at: .milliseconds(81_000)) == nil,
            "a tap left a minute is forgotten")
        #expect(sync.seen(at: .milliseconds(81_400)) == 400)

        var controls = ControlSurface(
            gpio: Self.twoTapPanel, delayStep: .milliseconds(100), initialLevels: [23: true, 24: true])
        let commands = run(&controls, press(24, at: 1_000, for: 80) + press(23, at: 1_900, for: 80), until: 3_000)
        #expect(commands.map(\.command) == [.syncDelay(milliseconds: -900)])
    }

    /// A panel with the two tap buttons: the radio's moment on line 23, the TV's on 24.
    static let twoTapPanel = GPIOSettings(
        chip: "gpiochip0",
        buttons: [
            ButtonSettings(name: "heard", line: 23, press: .tapHeard),
            ButtonSettings(name: "seen", line: 24, press: .tapSeen),
        ],
        encoder: nil, leds: [])

    /// A button held while the box is plugged in, and still held `resetHold` after the panel
    /// started: a factory reset, once; let go sooner (or never held), nothing — and no gesture
    /// of its own either.
    @Test func aButtonHeldThroughPowerOnIsAFactoryResetOnlyWhenHeldOn() {
        let start = Instant.milliseconds(2_000)
        let held = [5: true, 6: true, 13: true, 17: false, 22: true, 27: true]  // "play" held down
        var kept = ControlSurface(gpio: Self.panel, delayStep: .milliseconds(100), initialLevels: held, start: start)
        #expect(kept.nextDeadline == start + ControlSurface.resetHold, "the panel wakes for it")
        #expect(kept.advance(to: .milliseconds(6_999)).isEmpty)
        let reset = kept.advance(to: .milliseconds(7_500))
        #expect(reset == [TimedCommand(.factoryReset, at: .milliseconds(7_000))])
        #expect(kept.advance(to: .milliseconds(20_000)).isEmpty, "once")

        var letGo = ControlSurface(gpio: Self.panel, delayStep: .milliseconds(100), initialLevels: held, start: start)
        let released = letGo.handle(EdgeEvent(line: 17, high: true, at: .milliseconds(4_000)))
        #expect(released.isEmpty && letGo.advance(to: .milliseconds(20_000)).isEmpty, "let go at 2 s: no reset")
        // The panel works as ever after it.
        #expect(run(&letGo, press(17, at: 21_000, for: 100), until: 22_000).map(\.command) == [.playPause])

        var untouched = ControlSurface(
            gpio: Self.panel, delayStep: .milliseconds(100),
            initialLevels: [5: true, 6: true, 13: true, 17: true, 22: true, 27: true],
            start: start)
        #expect(untouched.nextDeadline == nil && untouched.advance(to: .milliseconds(60_000)).isEmpty)
    }

    @Test func theStatusLEDFollowsTheState() {
        let lit = { (state: String) in
            (0..<1_000).filter { LEDPattern(state: state).isLit(at: .milliseconds(Int64($0))) }.count
        }
        #expect(lit("playing") == 1_000 && lit("stopped") == 0 && lit("paused") == 0)
        #expect(lit("buffering") == 500 && lit("reconnecting") == 200 && lit("failed") == 500)
        #expect(
            LEDPattern(state: "failed").isLit(at: .zero)
                && !LEDPattern(state: "failed").isLit(at: .milliseconds(150)))
    }
}
