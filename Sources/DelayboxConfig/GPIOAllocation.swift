/// Which function each GPIO line serves: two functions on one line, or a line that the
/// board's codec HAT, the serial console or the IR receiver already takes, is an error at
/// the line's place in the file.
struct GPIOAllocation {
    let hat: AudioHAT
    let console: ConsoleSettings?
    /// `board.config_txt`: a `dtoverlay=gpio-ir` line gives its receiver's line to the kernel.
    var configTxt: [String] = []

    /// The line the kernel's IR receiver driver takes (`gpio_pin=`, 18 when not given),
    /// when `configTxt` loads the overlay.
    var infraredLine: Int? {
        for line in configTxt {
            let parts = line.split(separator: ",").map { $0.trimmingCharacters(in: " ") }
            guard parts.first == "dtoverlay=gpio-ir" else { continue }
            let pin = parts.dropFirst().first { $0.hasPrefix("gpio_pin=") }.flatMap {
                Int($0.dropFirst("gpio_pin=".count))
            }
            return pin ?? 18
        }
        return nil
    }

    func check(gpio: ConfigReader, settings: GPIOSettings?, log: DiagnosticLog) {
        guard let settings else { return }
        var reserved = hat.occupiedLines.mapValues { "the \(hat.rawValue) HAT (\($0))" }
        if let console, AudioHAT.uartDevices.contains(console.device) {
            for (line, use) in AudioHAT.uartLines {
                reserved[line] = "the serial console on \(console.device) (\(use))"
            }
        }
        if let infraredLine { reserved[infraredLine] = "the IR receiver (dtoverlay=gpio-ir in board.config_txt)" }
        var taken: [Int: String] = [:]
        func claim(_ line: Int, for use: String, at location: SourceLocation?) {
            let location = location ?? gpio.location ?? SourceLocation(file: "", line: 0, column: 0)
            if let owner = reserved[line] {
                log.error(location, "GPIO \(line) (\(use)) is taken by \(owner)")
            } else if let owner = taken[line] {
                log.error(location, "GPIO \(line) is used twice: \(owner) and \(use)")
            } else {
                taken[line] = use
            }
        }
        let buttons = gpio.node?["buttons"], leds = gpio.node?["leds"], encoder = gpio.node?["encoder"]
        for button in settings.buttons {
            claim(button.line, for: "button '\(button.name)'", at: buttons?[button.name]?["line"]?.location)
        }
        if let settings = settings.encoder {
            claim(settings.a, for: "encoder A", at: encoder?["a"]?.location)
            claim(settings.b, for: "encoder B", at: encoder?["b"]?.location)
            if let push = settings.push { claim(push, for: "encoder push", at: encoder?["push"]?.location) }
        }
        for led in settings.leds {
            claim(led.line, for: "LED '\(led.name)'", at: leds?[led.name]?["line"]?.location)
        }
    }
}
