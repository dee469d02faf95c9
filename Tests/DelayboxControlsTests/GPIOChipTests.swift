@testable import DelayboxGPIO
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The libgpiod adapter against the real libgpiod. This machine has no GPIO chip (and no
/// gpio-sim), so what runs here are the error paths; the virtual board (the deploy
/// issue) runs the adapter against a kernel gpio-sim chip.
@Suite struct GPIOChipTests {
    @Test(arguments: ["gpiochip0", "/dev/gpiochip7", "no-such-label"])
    func aMissingChipIsAClearError(name: String) {
        #expect(!FileManager.default.fileExists(atPath: "/dev/gpiochip0") || name != "gpiochip0", "this test expects no chip 0")
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

/// What the adapter says for the failures that need a chip to happen (permissions, a line
/// another program holds), from the errno libgpiod leaves.
@Suite struct GPIOErrorTests {
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
