import DelayboxCommands
import DelayboxConfig
import DelayboxControls
import DelayboxUnits
import Testing

/// A remote's keys in virtual time: the kernel's events (press, autorepeat every 125 ms
/// after 500 ms, release) in, commands out.
@Suite(.timeLimit(.minutes(10))) struct RemoteKeysTests {
    static let volumeUp = InputKeyName.codes["KEY_VOLUMEUP"]!, next = InputKeyName.codes["KEY_NEXT"]!
    static let three = InputKeyName.codes["KEY_NUMERIC_3"]!, play = InputKeyName.codes["KEY_PLAYPAUSE"]!
    static let ok = InputKeyName.codes["KEY_OK"]!, red = InputKeyName.codes["KEY_RED"]!,
        green = InputKeyName.codes["KEY_GREEN"]!, mute = InputKeyName.codes["KEY_MUTE"]!

    func keys() -> RemoteKeys {
        RemoteKeys(
            remote: RemoteSettings(
                device: "gpio_ir_recv",
                keys: [
                    RemoteKey(name: "KEY_VOLUMEUP", code: Self.volumeUp, press: ControlBinding(.volumeUp)),
                    RemoteKey(name: "KEY_NEXT", code: Self.next, press: ControlBinding(.delayUp)),
                    RemoteKey(name: "KEY_PLAYPAUSE", code: Self.play, press: ControlBinding(.playPause)),
                    RemoteKey(
                        name: "KEY_NUMERIC_3", code: Self.three, press: ControlBinding(.presetRecall, slot: 3),
                        longPress: ControlBinding(.presetSave, slot: 3)),
                    RemoteKey(name: "KEY_RED", code: Self.red, press: ControlBinding(.tapHeard)),
                    RemoteKey(name: "KEY_GREEN", code: Self.green, press: ControlBinding(.tapSeen)),
                    RemoteKey(
                        name: "KEY_MUTE", code: Self.mute, press: ControlBinding(.mute),
                        longPress: ControlBinding(.sayAddress)),
                ]), delayStep: .milliseconds(100))
    }

    /// A key held from `down` ms for `length` ms, as rc-core reports it.
    func hold(_ code: Int, at down: Int64, for length: Int64) -> [KeyEvent] {
        var events = [KeyEvent(code: code, .press, at: .milliseconds(down))]
        var at = down + 500
        while at < down + length {
            events.append(KeyEvent(code: code, .repeatWhileHeld, at: .milliseconds(at)))
            at += 125
        }
        return events + [KeyEvent(code: code, .release, at: .milliseconds(down + length))]
    }

    func run(_ keys: inout RemoteKeys, _ events: [KeyEvent], until end: Int64) -> [Command] {
        (events.flatMap { keys.handle($0) } + keys.advance(to: .milliseconds(end))).map(\.command)
    }

    @Test func aPressDoesItsActionOnceAndKeysTheRemoteDoesNotMapDoNothing() {
        var remote = keys()
        let commands = run(&remote, hold(Self.play, at: 0, for: 900) + hold(Self.ok, at: 1_000, for: 100), until: 2_000)
        #expect(commands == [.playPause], "play/pause does not repeat while held; KEY_OK is not mapped here")
    }

    @Test func aHeldDelayKeyRepeatsFasterTheLongerItIsHeld() {
        var remote = keys()
        let commands = run(&remote, hold(Self.next, at: 0, for: 4_000), until: 5_000)
        let steps = commands.compactMap { if case .adjustDelay(let ms) = $0 { ms } else { nil } }
        #expect(steps.count == 29, "the press and 28 repeats: \(steps)")
        #expect(steps.prefix(5).allSatisfy { $0 == 100 }, "the base step for the first second: \(steps)")
        #expect(steps.suffix(8).allSatisfy { $0 == 1_000 }, "ten steps (1 s) after three seconds: \(steps)")
        #expect(zip(steps, steps.dropFirst()).allSatisfy { $0 <= $1 }, "never slower: \(steps)")
        var again = keys()
        let short = run(&again, hold(Self.next, at: 0, for: 100) + hold(Self.next, at: 300, for: 100), until: 1_000)
        #expect(
            short == [.adjustDelay(milliseconds: 100), .adjustDelay(milliseconds: 100)], "a new press starts slow again"
        )
    }

    @Test func aReleaseLostWithEventsTheKernelDroppedFiresNoLongPress() {
        var remote = keys()
        // Preset 3 pressed; its release was among events lost (SYN_DROPPED) at 200 ms.
        let lost = run(
            &remote,
            [KeyEvent(code: Self.three, .press, at: .zero), KeyEvent(code: -1, .eventsLost, at: .milliseconds(200))],
            until: 3_000)
        #expect(lost.isEmpty, "no preset saved for a key nobody held: \(lost)")
        // A key really still down goes on repeating, and its repeats make a hold again.
        var held = keys()
        let events =
            [KeyEvent(code: Self.three, .press, at: .zero), KeyEvent(code: -1, .eventsLost, at: .milliseconds(200))]
            + stride(from: Int64(500), through: 2_500, by: 125).map {
                KeyEvent(code: Self.three, .repeatWhileHeld, at: .milliseconds($0))
            }
        #expect(run(&held, events, until: 2_600) == [.savePreset(3)])
    }

    @Test func aHeldVolumeKeyRepeatsItsStep() {
        var remote = keys()
        let commands = run(&remote, hold(Self.volumeUp, at: 0, for: 1_000), until: 2_000)
        #expect(commands == Array(repeating: .adjustVolume(steps: 2), count: 5), "\(commands)")
    }

    @Test func aNumberKeyRecallsItsPresetWhenReleasedAndSavesItWhenHeldASecond() {
        var remote = keys()
        #expect(run(&remote, hold(Self.three, at: 0, for: 300), until: 2_000) == [.recallPreset(3)])
        #expect(
            run(&remote, hold(Self.three, at: 3_000, for: 2_500), until: 6_000) == [.savePreset(3)],
            "once, however long held")
        // The long press fires at its second although no event comes then.
        var held = keys()
        _ = held.handle(KeyEvent(code: Self.three, .press, at: .milliseconds(10_000)))
        #expect(held.nextDeadline == .milliseconds(11_000))
        #expect(held.advance(to: .milliseconds(10_999)).isEmpty)
        #expect(held.advance(to: .milliseconds(11_000)).map(\.command) == [.savePreset(3)])
        #expect(held.nextDeadline == nil)
    }

    /// The shipped remote's EQ key: pressed it mutes; held a second the box says where it is.
    @Test func aHeldKeyAsksTheBoxWhereItIs() {
        var remote = keys()
        #expect(run(&remote, hold(Self.mute, at: 0, for: 300), until: 2_000) == [.toggleMute])
        #expect(run(&remote, hold(Self.mute, at: 3_000, for: 1_500), until: 6_000) == [.sayAddress])
    }

    /// Held on for 10 s, that key resets the box (it said where the box is at a second);
    /// let go at 9.9 s, or another key held as long (a preset's), it does not.
    @Test func theAddressKeyHeldTenSecondsIsAFactoryReset() {
        var remote = keys()
        #expect(run(&remote, hold(Self.mute, at: 0, for: 9_900), until: 12_000) == [.sayAddress])
        #expect(
            run(&remote, hold(Self.mute, at: 20_000, for: 12_000), until: 40_000) == [.sayAddress, .factoryReset],
            "once per hold")
        #expect(run(&remote, hold(Self.three, at: 50_000, for: 12_000), until: 70_000) == [.savePreset(3)])
        var quiet = keys()
        _ = quiet.handle(KeyEvent(code: Self.mute, .press, at: .milliseconds(0)))
        _ = quiet.advance(to: .milliseconds(1_000))
        #expect(quiet.nextDeadline == .milliseconds(10_000), "the receiver's thread wakes for it with no event")
        #expect(quiet.advance(to: .milliseconds(10_000)).map(\.command) == [.factoryReset])
    }

    @Test func tapSyncBothWaysFromTwoKeys() {
        var remote = keys()
        let later = run(&remote, hold(Self.red, at: 0, for: 100) + hold(Self.green, at: 1_500, for: 100), until: 2_000)
        #expect(later == [.syncDelay(milliseconds: 1_500)])
        let earlier = run(
            &remote, hold(Self.green, at: 5_000, for: 100) + hold(Self.red, at: 5_800, for: 100), until: 6_000)
        #expect(earlier == [.syncDelay(milliseconds: -800)], "the TV first: less delay")
    }

    /// The radio's moment tapped on the front panel, the TV's on the remote (or the other
    /// way): they pair, as two taps on one control do. Before, each kept its own first tap
    /// and neither completed.
    @Test func aTapOnThePanelAndOneOnTheRemotePair() {
        let taps = TapPairing()
        var panel = ControlSurface(
            gpio: ControlSurfaceTests.twoTapPanel, delayStep: .milliseconds(100), initialLevels: [23: true, 24: true],
            taps: taps)
        var remote = RemoteKeys(
            remote: RemoteSettings(
                device: "gpio_ir_recv",
                keys: [
                    RemoteKey(name: "KEY_GREEN", code: Self.green, press: ControlBinding(.tapSeen)),
                    RemoteKey(name: "KEY_RED", code: Self.red, press: ControlBinding(.tapHeard)),
                ]), delayStep: .milliseconds(100), taps: taps)
        let heardOnPanel = ControlSurfaceTests().run(
            &panel, ControlSurfaceTests().press(23, at: 1_000, for: 80), until: 1_200)
        #expect(heardOnPanel.isEmpty, "the first tap waits for its pair")
        // (The panel's press counts at its release, 80 ms in: 1.08 s.)
        #expect(run(&remote, hold(Self.green, at: 1_700, for: 100), until: 2_000) == [.syncDelay(milliseconds: 620)])
        #expect(run(&remote, hold(Self.green, at: 5_000, for: 100), until: 5_200).isEmpty)
        let heardLater = ControlSurfaceTests().run(
            &panel, ControlSurfaceTests().press(23, at: 5_400, for: 80), until: 5_600)
        #expect(
            heardLater.map(\.command) == [.syncDelay(milliseconds: -480)], "the TV first, on the remote: less delay")
    }

    @Test func aRepeatWithoutItsPressStartsAHoldButDoesNothingYet() {
        var remote = keys()
        let commands = run(
            &remote,
            [
                KeyEvent(code: Self.three, .repeatWhileHeld, at: .zero),
                KeyEvent(code: Self.three, .release, at: .milliseconds(200)),
            ], until: 2_000)
        #expect(commands == [.recallPreset(3)], "the release of a short hold is a press: \(commands)")
    }
}
