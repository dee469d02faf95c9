import Foundation
import Testing

@testable import DelayboxGPIO

#if canImport(Glibc)
    import Glibc
#endif

/// The libgpiod adapter against the real libgpiod. This machine has no GPIO chip (and no
/// gpio-sim), so what runs here are the error paths; the virtual board (the deploy
/// issue) runs the adapter against a kernel gpio-sim chip.
@Suite(.timeLimit(.minutes(10))) struct GPIOChipTests {
    @Test(arguments: ["gpiochip0", "/dev/gpiochip7", "no-such-label"])
    func aMissingChipIsAClearError(name: String) {
        #expect(
            !FileManager.default.fileExists(atPath: "/dev/gpiochip0") || name != "gpiochip0",
            "this test expects no chip 0")
        do {
            _ = try GPIOChip(name)
            Issue.record("opened '\(name)'")
        } catch {
            #expect(error.description.contains("GPIO chip '\(name)' not found"), "\(error)")
            #expect(error.description.contains("gpiodetect"), "it says how to look")
        }
    }

    @Test func aDeviceThatIsNotAChipIsRefusedNotCrashedOn() {
        do {
            _ = try GPIOChip("/dev/null")
            Issue.record("opened /dev/null as a GPIO chip")
        } catch {
            #expect(!error.description.isEmpty)
        }
    }
}

/// How a chip named in a board config is found: libgpiod 2 opens chips by path only, so
/// the names a board config may use (as libgpiod 1.x took them) are looked up.
@Suite(.timeLimit(.minutes(10))) struct GPIOChipLookupTests {
    let chips: [(path: String, label: String?)] = [
        ("/dev/gpiochip0", "pinctrl-bcm2711"), ("/dev/gpiochip1", "raspberrypi-exp-gpio"),
        ("/dev/gpiochip2", "gpio-sim.0-node0"),
    ]

    @Test func pathsNumbersNamesAndLabelsFindTheirChip() {
        var asked = 0
        let listing = {
            asked += 1; return chips
        }
        #expect(GPIOChip.devicePath(for: "/dev/gpiochip4", among: listing) == "/dev/gpiochip4")
        #expect(GPIOChip.devicePath(for: "1", among: listing) == "/dev/gpiochip1")
        #expect(asked == 0, "a path or a number needs no listing")
        #expect(GPIOChip.devicePath(for: "gpiochip2", among: listing) == "/dev/gpiochip2")
        #expect(GPIOChip.devicePath(for: "pinctrl-bcm2711", among: listing) == "/dev/gpiochip0")
        #expect(GPIOChip.devicePath(for: "gpio-sim.0-node0", among: listing) == "/dev/gpiochip2")
    }

    @Test func anUnknownNameFindsNothing() {
        #expect(GPIOChip.devicePath(for: "gpiochip7", among: { chips }) == nil)
        #expect(GPIOChip.devicePath(for: "no-such-label", among: { chips }) == nil)
        #expect(GPIOChip.devicePath(for: "-1", among: { chips }) == nil)
    }
}

/// What the adapter says for the failures that need a chip to happen (permissions, a line
/// another program holds), from the errno libgpiod leaves.
@Suite(.timeLimit(.minutes(10))) struct GPIOErrorTests {
    @Test func permissionAndBusyLinesSayWhatToDo() {
        let denied = GPIOErrorProbe.message(errno: EACCES, what: "GPIO line 17", consumer: nil)
        #expect(denied.contains("no permission") && denied.contains("'gpio' group"), "\(denied)")
        let busy = GPIOErrorProbe.message(errno: EBUSY, what: "GPIO line 18", consumer: "snd-soc-pcm512x")
        #expect(busy.contains("GPIO line 18 on 'gpiochip0' is busy: already used by 'snd-soc-pcm512x'"), "\(busy)")
    }
}

enum GPIOErrorProbe {
    static func message(errno: Int32, what: String, consumer: String?) -> String {
        GPIOError.from(errno: errno, chip: "gpiochip0", what: what, consumer: consumer).description
    }
}
