import DelayboxCommands
import DelayboxConfig
import DelayboxControls
import DelayboxGPIO
import DelayboxLog
import DelayboxPlatform
import DelayboxUnits
import FoundationEssentials
import Synchronization

/// The front panel's own thread: one poll over every button and encoder line
/// (`GPIOChip.waitForEdges`), the control surface turning edges into commands, and the
/// status LED's blinking. Commands wait in an inbox that the playout thread drains before
/// each period; the playout thread tells which LED pattern to show.
public final class FrontPanel: Sendable {
    private let gpio: GPIOSettings
    private let delayStep: TimeAmount
    /// Tap-to-sync's first tap, shared with the remote.
    private let taps: TapPairing
    private let inbox: CommandInbox
    private let pattern = Mutex(LEDPattern.off)
    /// Input levels and edge counts by line, for the console's `gpio`.
    private let seen = Mutex<(levels: [Int: Bool], edges: [Int: Int])>(([:], [:]))
    private let worker = WorkerThread(name: "delaybox-panel")
    private let logger = Logger(label: "delaybox.controls")

    /// - Parameter ring: wakes the playout thread when a command is posted.
    init(gpio: GPIOSettings, delayStep: TimeAmount, taps: TapPairing, ring: @escaping @Sendable () -> Void) {
        self.gpio = gpio
        self.delayStep = delayStep
        self.taps = taps
        inbox = CommandInbox(ring: ring)
    }

    /// Opens the chip and requests the lines (errors are the caller's to report), then
    /// starts the thread.
    func start() throws(GPIOError) {
        let chip = try GPIOChip(gpio.chip)
        // Buttons (the encoder's push too) are debounced by the kernel where libgpiod can
        // ask it to, and again on the edges' timestamps; the encoder's A and B lines never
        // are: the quadrature decoder rejects bounce and needs every quarter step.
        for button in gpio.buttons {
            try chip.watch(
                GPIOChip.Input(
                    line: button.line, pull: Self.pull(button.bias),
                    debounceMicroseconds: Int(button.debounce.nanoseconds / 1_000)))
        }
        if let encoder = gpio.encoder {
            for line in [encoder.a, encoder.b] {
                try chip.watch(GPIOChip.Input(line: line, pull: Self.pull(encoder.bias)))
            }
            if let push = encoder.push {
                try chip.watch(
                    GPIOChip.Input(
                        line: push, pull: Self.pull(encoder.bias),
                        debounceMicroseconds: Int(ControlSurface.pushDebounce.nanoseconds / 1_000)))
            }
        }
        for led in gpio.leds { try chip.drive(line: led.line) }
        let initial = chip.levels()
        seen.withLock { $0.levels = initial }
        let surface = ControlSurface(
            gpio: gpio, delayStep: delayStep, initialLevels: initial, taps: taps, start: SystemClock.monotonicNow())
        nonisolated(unsafe) let owned = (chip, surface)
        worker.start { [self] in
            var (chip, surface) = owned
            loop(chip: &chip, surface: &surface)
        }
        logger.info(
            "front panel on \(gpio.chip): \(gpio.buttons.count) buttons, \(gpio.encoder == nil ? "no encoder" : "encoder"), \(gpio.leds.count) LEDs (\(GPIOChip.library)\(GPIOChip.kernelDebounce ? ", buttons debounced by the kernel" : ""))"
        )
    }

    func stop() { worker.stop() }

    /// The commands the panel produced since the last call.
    func drain() -> [TimedCommand] { inbox.drain() }

    func show(_ pattern: LEDPattern) { self.pattern.withLock { $0 = pattern } }

    /// The inputs as the panel's thread last saw them (`gpio`).
    public func inputView() -> InputLineView {
        let (levels, edges) = seen.withLock { $0 }
        return InputLineView(gpio: gpio, levels: levels, edges: edges)
    }

    private func loop(chip: inout GPIOChip, surface: inout ControlSurface) {
        while !worker.isStopRequested {
            let now = SystemClock.monotonicNow()
            // Wake for the next button timer, the LED's next blink step, or a stop: ≤ 50 ms.
            let most = TimeAmount.milliseconds(50)
            do {
                let edges = try chip.waitForEdges(timeout: min(surface.nextDeadline.map { $0 - now } ?? most, most))
                for edge in edges { inbox.post(surface.handle(edge)) }
                if !edges.isEmpty {
                    seen.withLock { seen in
                        for edge in edges {
                            seen.levels[edge.line] = edge.high
                            seen.edges[edge.line, default: 0] += 1
                        }
                    }
                }
            } catch {
                logger.error("\(error)")
                PlatformThread.sleep(for: .seconds(1))
            }
            let after = SystemClock.monotonicNow()
            inbox.post(surface.advance(to: after))
            let lit = pattern.withLock { $0 }.isLit(at: after)
            for led in gpio.leds { chip.set(line: led.line, high: lit != led.activeLow) }
        }
        for led in gpio.leds { chip.set(line: led.line, high: led.activeLow) }  // off
        // The lines are free once `stop()` returns: a reload may request them again at once.
        chip.release()
    }

    static func pull(_ bias: LineBias) -> GPIOChip.Pull {
        switch bias {
        case .asIs: .asIs
        case .pullUp: .up
        case .pullDown: .down
        case .disabled: .disabled
        }
    }
}
