import DelayboxAnswers
import DelayboxCommands
import DelayboxConfig
import DelayboxControls
import DelayboxEngine
import DelayboxTestSupport
import DelayboxUnits
import Testing

/// End to end, in virtual time: edges → commands → executor → engine → output. Apart from
/// the surface's own tests: these need the composition root (`make check` leaves them to
/// `make test`).
extension ControlSurfaceTests {

    func playingRig() throws -> EngineRig {
        var configuration = EngineConfiguration()
        configuration.initialDelay = .milliseconds(5_000)
        let rig = try EngineRig(configuration: configuration, historyPackets: 1_000, burstPackets: 500)
        rig.run(milliseconds: 12_000)
        return rig
    }

    @Test func aDetentReachesTheOutputAsADelayChangeWithin50Milliseconds() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delay: .milliseconds(5_000), volume: 50))
        var controls = surface()
        var turn = EdgeTimeline(a: 5, b: 6)
        turn.now = rig.now
        turn.detents(1, direction: 1, step: .milliseconds(3), bounce: true)
        let detentAt = try #require(turn.edges.last).time
        // The event loop hands commands over as the edges arrive; the playout thread runs
        // them before its next period.
        let commands = run(&controls, turn.edges, until: detentAt.milliseconds(since: .zero))
        #expect(commands.map(\.command) == [.adjustDelay(milliseconds: 100)])
        let before = rig.output.notifications.count
        #expect(rig.run(until: { $0.now >= detentAt }))
        for command in commands { executor.execute(command.command, now: rig.now) }
        rig.run(milliseconds: 100)
        let change = try #require(
            rig.output.notifications.dropFirst(before).first {
                if case .delayChanged = $0.notification { true } else { false }
            })
        let heardAt = rig.jackTime(ofOutput: Int(change.frame))
        #expect(
            heardAt - detentAt.seconds <= 0.050,
            "a detent is heard \(heardAt - detentAt.seconds) s after it")
        #expect(
            rig.engine.status(at: rig.now).delay.milliseconds == 5_100 && executor.settings.delay.milliseconds == 5_100)
    }

    @Test func aLongPressSavesAPresetAndAShortOneRecallsIt() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delay: .milliseconds(5_000), volume: 50))
        var controls = surface()
        let start = rig.now.milliseconds(since: .zero)
        for command in run(&controls, press(27, at: start + 10, for: 1_200), until: start + 1_500) {
            executor.execute(command.command, now: rig.now)
        }
        #expect(executor.settings.presets[1] == 5_000, "the long press saved the delay in force")
        #expect(executor.execute(.adjustDelay(milliseconds: 2_000), now: rig.now) == .done)
        rig.run(milliseconds: 200)
        for command in run(&controls, press(27, at: start + 3_000, for: 100), until: start + 3_500) {
            #expect(executor.execute(command.command, now: rig.now) == .done)
        }
        #expect(rig.engine.status(at: rig.now).delay.milliseconds == 5_000, "the short press recalled it")
        #expect(executor.execute(.recallPreset(2), now: rig.now) == .refused("preset 2 is empty"))
    }

    /// Issue 44: the installer's `max_volume` holds whichever door asks, and a lower cap
    /// from a reload brings the volume down to it.
    @Test func everyDoorIsHeldAtTheInstallersMaximumVolume() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(
            engine: rig.engine, settings: Settings(delay: .milliseconds(5_000), volume: 50), maxVolume: 60)
        #expect(executor.execute(.adjustVolume(steps: 5), now: rig.now) == .done && executor.settings.volume == 55)
        #expect(
            executor.execute(.adjustVolume(steps: 10), now: rig.now) == .limitReached && executor.settings.volume == 60)
        #expect(executor.execute(.setVolume(100), now: rig.now) == .limitReached && executor.settings.volume == 60)
        #expect(executor.limitVolume(to: 40, now: rig.now) && executor.settings.volume == 40)
        #expect(
            !executor.limitVolume(to: 80, now: rig.now) && executor.settings.volume == 40,
            "a higher cap leaves the volume")
        #expect(executor.execute(.setVolume(75), now: rig.now) == .done)
    }

    @Test func tapToSyncSetsTheExpectedDelay() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delay: .milliseconds(5_000), volume: 50))
        var controls = surface()
        let start = rig.now.milliseconds(since: .zero)
        for command in run(
            &controls, press(22, at: start + 100, for: 80) + press(22, at: start + 2_600, for: 80), until: start + 3_000
        ) {
            executor.execute(command.command, now: rig.now)
        }
        rig.run(milliseconds: 200)
        #expect(rig.engine.status(at: rig.now).delay.milliseconds == 7_500)
    }

    /// The TV 3 s ahead of the radio at 5 s delay: 2 s. Then a tap pair that would take
    /// the delay below the minimum is refused with the reason, the delay untouched.
    @Test func tapToSyncBothWaysSetsTheDelayOrSaysWhyNot() throws {
        let rig = try playingRig()
        let executor = CommandExecutor(engine: rig.engine, settings: Settings(delay: .milliseconds(5_000), volume: 50))
        var controls = ControlSurface(
            gpio: Self.twoTapPanel, delayStep: .milliseconds(100), initialLevels: [23: true, 24: true])
        let start = rig.now.milliseconds(since: .zero)
        for command in run(
            &controls, press(24, at: start + 100, for: 80) + press(23, at: start + 3_100, for: 80), until: start + 3_500
        ) {
            #expect(executor.execute(command.command, now: rig.now) == .done)
        }
        rig.run(milliseconds: 200)
        #expect(rig.engine.status(at: rig.now).delay.milliseconds == 2_000)
        let outcomes = run(
            &controls, press(24, at: start + 5_000, for: 80) + press(23, at: start + 9_000, for: 80),
            until: start + 9_500
        )
        .map { executor.execute($0.command, now: rig.now) }
        #expect(outcomes == [.refused("tap-to-sync: the TV was 4.0 s ahead; the delay (2.0 s) cannot go below 1.0 s")])
        #expect(rig.engine.status(at: rig.now).delay.milliseconds == 2_000)
    }
}
