import DelayboxApp
import DelayboxCommands
import DelayboxConfig
import DelayboxControls
import DelayboxEngine
import DelayboxTestSupport
import Testing

@Suite struct ControlSurfaceTests {
    static let ms: Int64 = 1_000_000
    /// The Pi boards' front panel (board-configs/base.yaml).
    static let panel = GPIOSettings(
        chip: "gpiochip0",
        buttons: [ButtonSettings(name: "play", line: 17, press: .playPause, longPress: .jumpToLive),
                  ButtonSettings(name: "preset", line: 27, press: .presetRecall, longPress: .presetSave),
                  ButtonSettings(name: "tap", line: 22, press: .tapSync)],
        encoder: EncoderSettings(a: 5, b: 6, push: 13, pushAction: .modeToggle, pushLongAction: .mute),
        leds: [])

    func surface() -> ControlSurface {
        ControlSurface(gpio: Self.panel, delayStepMs: 100, initialLevels: [5: true, 6: true, 13: true, 17: true, 22: true, 27: true])
    }

    /// Presses (active low, bouncy) the button on `line` from `down` ms for `length` ms.
    func press(_ line: Int, at down: Int64, for length: Int64) -> [EdgeEvent] {
        [EdgeEvent(line: line, high: false, nanoseconds: down * Self.ms),
         EdgeEvent(line: line, high: true, nanoseconds: down * Self.ms + 300_000),
         EdgeEvent(line: line, high: false, nanoseconds: down * Self.ms + 600_000),
         EdgeEvent(line: line, high: true, nanoseconds: (down + length) * Self.ms)]
    }

    func run(_ surface: inout ControlSurface, _ edges: [EdgeEvent], until end: Int64) -> [TimedCommand] {
        edges.sorted { $0.nanoseconds < $1.nanoseconds }.flatMap { surface.handle($0) } + surface.advance(to: end * Self.ms)
    }

    @Test func slowDetentsStepByTheConfiguredStepAndFastSpinsUpToASecond() {
        var controls = surface()
        var slow = EdgeTimeline(a: 5, b: 6)
        slow.detents(3, direction: 1, stepNs: 60_000_000, bounce: true)  // 240 ms per detent
        #expect(run(&controls, slow.edges, until: 2_000).map(\.command) == Array(repeating: .adjustDelay(milliseconds: 100), count: 3))
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
        #expect(sync.tap(at: 0) == nil && sync.tap(at: 61_000 * Self.ms) == nil, "a first tap left alone a minute is forgotten")
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
        #expect(sync.seen(at: 20_000 * Self.ms) == nil && sync.heard(at: 81_000 * Self.ms) == nil, "a tap left a minute is forgotten")
        #expect(sync.seen(at: 81_400 * Self.ms) == 400)

        var controls = ControlSurface(gpio: Self.twoTapPanel, delayStepMs: 100, initialLevels: [23: true, 24: true])
        let commands = run(&controls, press(24, at: 1_000, for: 80) + press(23, at: 1_900, for: 80), until: 3_000)
        #expect(commands.map(\.command) == [.syncDelay(milliseconds: -900)])
    }

    /// A panel with the two tap buttons: the radio's moment on line 23, the TV's on 24.
    static let twoTapPanel = GPIOSettings(
        chip: "gpiochip0",
        buttons: [ButtonSettings(name: "heard", line: 23, press: .tapHeard), ButtonSettings(name: "seen", line: 24, press: .tapSeen)],
        encoder: nil, leds: [])

    @Test func theStatusLEDFollowsTheState() {
        let lit = { (state: String) in (0..<1_000).filter { LEDPattern(state: state).isLit(atMilliseconds: Int64($0)) }.count }
        #expect(lit("playing") == 1_000 && lit("stopped") == 0 && lit("paused") == 0)
        #expect(lit("buffering") == 500 && lit("reconnecting") == 200 && lit("failed") == 500)
        #expect(LEDPattern(state: "failed").isLit(atMilliseconds: 0) && !LEDPattern(state: "failed").isLit(atMilliseconds: 150))
    }

    // MARK: End to end, in virtual time: edges → commands → executor → engine → output.

    func playingRig() throws -> EngineRig {
        var configuration = EngineConfiguration()
        configuration.initialDelayMs = 5_000
        let rig = try EngineRig(configuration: configuration, historyPackets: 1_000, burstPackets: 500)
        rig.run(milliseconds: 12_000)
        return rig
    }

    @Test func aDetentReachesTheOutputAsADelayChangeWithin50Milliseconds() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delayMs: 5_000, volume: 50))
        var controls = surface()
        var turn = EdgeTimeline(a: 5, b: 6)
        turn.now = rig.now.nanoseconds
        turn.detents(1, direction: 1, stepNs: 3_000_000, bounce: true)
        let detentAt = try #require(turn.edges.last).nanoseconds
        // The event loop hands commands over as the edges arrive; the playout thread runs
        // them before its next period.
        let commands = run(&controls, turn.edges, until: detentAt / Self.ms)
        #expect(commands.map(\.command) == [.adjustDelay(milliseconds: 100)])
        let before = rig.output.notifications.count
        #expect(rig.run(until: { $0.now.nanoseconds >= detentAt }))
        for command in commands { executor.execute(command.command, now: rig.now) }
        rig.run(milliseconds: 100)
        let change = try #require(rig.output.notifications.dropFirst(before).first { if case .delayChanged = $0.notification { true } else { false } })
        let heardAt = rig.jackTime(ofOutput: Int(change.frame))
        #expect(heardAt - Double(detentAt) / 1e9 <= 0.050, "a detent is heard \(heardAt - Double(detentAt) / 1e9) s after it")
        #expect(rig.engine.status(at: rig.now).delayMs == 5_100 && executor.settings.delayMs == 5_100)
    }

    @Test func aLongPressSavesAPresetAndAShortOneRecallsIt() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delayMs: 5_000, volume: 50))
        var controls = surface()
        let start = rig.now.nanoseconds / Self.ms
        for command in run(&controls, press(27, at: start + 10, for: 1_200), until: start + 1_500) {
            executor.execute(command.command, now: rig.now)
        }
        #expect(executor.settings.presets[1] == 5_000, "the long press saved the delay in force")
        #expect(executor.execute(.adjustDelay(milliseconds: 2_000), now: rig.now) == .done)
        rig.run(milliseconds: 200)
        for command in run(&controls, press(27, at: start + 3_000, for: 100), until: start + 3_500) {
            #expect(executor.execute(command.command, now: rig.now) == .done)
        }
        #expect(rig.engine.status(at: rig.now).delayMs == 5_000, "the short press recalled it")
        #expect(executor.execute(.recallPreset(2), now: rig.now) == .refused("preset 2 is empty"))
    }

    /// Issue 44: the installer's `max_volume` holds whichever door asks, and a lower cap
    /// from a reload brings the volume down to it.
    @Test func everyDoorIsHeldAtTheInstallersMaximumVolume() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delayMs: 5_000, volume: 50), maxVolume: 60)
        #expect(executor.execute(.adjustVolume(steps: 5), now: rig.now) == .done && executor.settings.volume == 55)
        #expect(executor.execute(.adjustVolume(steps: 10), now: rig.now) == .limitReached && executor.settings.volume == 60)
        #expect(executor.execute(.setVolume(100), now: rig.now) == .limitReached && executor.settings.volume == 60)
        #expect(executor.limitVolume(to: 40, now: rig.now) && executor.settings.volume == 40)
        #expect(!executor.limitVolume(to: 80, now: rig.now) && executor.settings.volume == 40, "a higher cap leaves the volume")
        #expect(executor.execute(.setVolume(75), now: rig.now) == .done)
    }

    @Test func tapToSyncSetsTheExpectedDelay() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delayMs: 5_000, volume: 50))
        var controls = surface()
        let start = rig.now.nanoseconds / Self.ms
        for command in run(&controls, press(22, at: start + 100, for: 80) + press(22, at: start + 2_600, for: 80), until: start + 3_000) {
            executor.execute(command.command, now: rig.now)
        }
        rig.run(milliseconds: 200)
        #expect(rig.engine.status(at: rig.now).delayMs == 7_500)
    }

    /// The TV 3 s ahead of the radio at 5 s delay: 2 s. Then a tap pair that would take
    /// the delay below the minimum is refused with the reason, the delay untouched.
    @Test func tapToSyncBothWaysSetsTheDelayOrSaysWhyNot() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delayMs: 5_000, volume: 50))
        var controls = ControlSurface(gpio: Self.twoTapPanel, delayStepMs: 100, initialLevels: [23: true, 24: true])
        let start = rig.now.nanoseconds / Self.ms
        for command in run(&controls, press(24, at: start + 100, for: 80) + press(23, at: start + 3_100, for: 80), until: start + 3_500) {
            #expect(executor.execute(command.command, now: rig.now) == .done)
        }
        rig.run(milliseconds: 200)
        #expect(rig.engine.status(at: rig.now).delayMs == 2_000)
        let outcomes = run(&controls, press(24, at: start + 5_000, for: 80) + press(23, at: start + 9_000, for: 80), until: start + 9_500)
            .map { executor.execute($0.command, now: rig.now) }
        #expect(outcomes == [.refused("tap-to-sync: the TV was 4.0 s ahead; the delay (2.0 s) cannot go below 1.0 s")])
        #expect(rig.engine.status(at: rig.now).delayMs == 2_000)
    }
}
