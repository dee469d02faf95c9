import DelayboxConfig
import DelayboxControls
import DelayboxUnits
import Testing

/// The console's `remote`: the device, and the last presses with what they do.
@Suite(.timeLimit(.minutes(10))) struct RemoteViewTests {
    static let remote = RemoteSettings(
        device: "gpio_ir_recv",
        keys: [
            RemoteKey(name: "KEY_VOLUMEUP", code: 115, press: ControlBinding(.volumeUp)),
            RemoteKey(
                name: "KEY_NUMERIC_3", code: 0x203, press: ControlBinding(.presetRecall, slot: 3),
                longPress: ControlBinding(.presetSave, slot: 3)),
        ])

    @Test func saysWhyNoDeviceIsOpenUntilOneIs() {
        var view = RemoteView(device: "gpio_ir_recv")
        view.problem = "no input device named 'gpio_ir_recv' (the kernel has: none)"
        #expect(
            view.answer(now: .zero).device == "not open: no input device named 'gpio_ir_recv' (the kernel has: none)")
        view.open = ("gpio_ir_recv", "/dev/input/event0")
        view.problem = nil
        #expect(view.answer(now: .zero).device == "'gpio_ir_recv' (/dev/input/event0)")
        #expect(view.answer(now: .zero).lastKeys == "none yet")
    }

    @Test func listsTheLastFivePressesNewestFirstWithWhatTheyDo() {
        var view = RemoteView(device: "gpio_ir_recv")
        view.pressed(115, at: .seconds(1), remote: Self.remote)
        view.pressed(0x203, at: .seconds(2), remote: Self.remote)
        view.pressed(164, at: .seconds(3), remote: Self.remote)  // KEY_PLAYPAUSE, not mapped here
        view.pressed(999, at: .seconds(4), remote: Self.remote)
        let answer = view.answer(now: .seconds(4.5))
        #expect(answer.presses == "4")
        #expect(
            answer.lastKeys == "code 999 (not mapped) 0.5 s ago, KEY_PLAYPAUSE (not mapped) 1.5 s ago, "
                + "KEY_NUMERIC_3 (preset_recall 3 / held: preset_save 3) 2.5 s ago, KEY_VOLUMEUP (volume_up) 3.5 s ago")
        for step in 5...9 { view.pressed(115, at: .seconds(Double(step)), remote: Self.remote) }
        #expect(view.last.count == RemoteView.kept && view.presses == 9)
    }
}
