import DelayboxCommands
import DelayboxConfig
import DelayboxControls
import DelayboxEngine
import DelayboxTestSupport
import Testing

@Suite(.timeLimit(.minutes(10))) struct ControlSurfaceTests {
    static let ms: Int64 = 1_000_000
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
            gpio: Self.panel, delayStepMs: 100,
            initialLevels: [5: true, 6: true, 13: true, 17: true, 22: true, 27: true])
    }

    /// Presses (active low, bouncy) the button on `line` from `down` ms for `length` ms.
    func press(_ line: Int, at down: Int64, for length: Int64) -> [EdgeEvent] {
        [
            EdgeEvent(line: line, high: false, nanoseconds: down * Self.ms),
            EdgeEvent(line: line, high: true, nanoseconds: down * Self.ms + 300_000),
            EdgeEvent(line: line, high: false, nanoseconds: down * Self.ms + 600_000),
            EdgeEvent(line: line, high: true, nanoseconds: (down + length) * Self.ms),
        ]
    }

    func run(_ surface: inout ControlSurface, _ edges: [EdgeEvent], until end: Int64) -> [TimedCommand] {
        edges.sorted { $0.nanoseconds < $1.nanoseconds }.flatMap { surface.handle($0) }
            + surface.advance(to: end * Self.ms)
    }

    @Test func slowDetentsStepByTheConfiguredStepAndFastSpinsUpToASecond() {
        var controls = surface()
        var slow = EdgeTimeline(a: 5, b: 6)
        slow.detents(3, direction: 1, stepNs: 60_000_000, bounce: true)  // 240 ms per detent
        #expect(
            run(&controls, slow.edges, until: 2_000).map(\.command)
                == Array(repeating: .adjustDelay(milliseconds: 100), count: 3))
        var fast = EdgeTimeline(a: 5, b: 6)
        fast.now = 5_000 * Self.ms
        fast.detents(6, direction: -1, stepNs: 2_000_000)  // 8 ms per detent
        let steps = run(&controls, fast.edges, until: 6_000).map(\.command)
        #expect(steps.first == .adjustDelay(milliseconds: -100), "the first detent of a spin is a slow one")
        #expect(steps.dropFirst().allSatisfy { $0 == .adjustDelay(milliseconds: -1_000) }, "\(steps)")
    }

    @Test func acceleratesSmoothlyWithTheSpeed() {
        var acceleration = KnobAcceleration()
        var multipliers: [Double] = []
        var now: Int64 = 0
        for interval in stride(from: 200, through: 20, by: -20) {
            now += Int64(interval) * Self.ms
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
        turn.now = 1_000 * Self.ms
        turn.detents(2, direction: 1, stepNs: 60_000_000)
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
            sync.tap(at: 0) == nil && sync.tap(at: 61_000 * Self.ms) == nil,
            "a first tap left alone a minute is forgotten")
        #expect(sync.tap(at: 62_000 * Self.ms) == 1_000)
    }

    /// Two inputs, one for the radio's moment and one for the TV's, in either order: the
    /// delay moves up when the TV came second, down when it came first.
    @Test func tapToSyncBothWaysMovesTheDelayUpOrDown() {
        var sync = TapSync()
        #expect(sync.heard(at: 1_000 * Self.ms) == nil && sync.isWaiting)
        #expect(sync.seen(at: 3_500 * Self.ms) == 2_500, "the TV after the radio: more delay")
        #expect(sync.seen(at: 10_000 * Self.ms) == nil)
        #expect(sync.heard(at: 11_200 * Self.ms) == -1_200, "the TV first: less delay")
        #expect(!sync.isWaiting)
        #expect(
            sync.seen(at: 20_000 * Self.ms) == nil && sync.heard(at: 81_000 * Self.ms) == nil,
            "a tap left a minute is forgotten")
        #expect(sync.seen(at: 81_400 * Self.ms) == 400)

        var controls = ControlSurface(gpio: Self.twoTapPanel, delayStepMs: 100, initialLevels: [23: true, 24: true])
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

    @Test func theStatusLEDFollowsTheState() {
        let lit = { (state: String) in
            (0..<1_000).filter { LEDPattern(state: state).isLit(atMilliseconds: Int64($0)) }.count
        }
        #expect(lit("playing") == 1_000 && lit("stopped") == 0 && lit("paused") == 0)
        #expect(lit("buffering") == 500 && lit("reconnecting") == 200 && lit("failed") == 500)
        #expect(
            LEDPattern(state: "failed").isLit(atMilliseconds: 0)
                && !LEDPattern(state: "failed").isLit(atMilliseconds: 150))
    }
}
