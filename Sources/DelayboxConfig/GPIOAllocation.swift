/// Which function each GPIO line serves: two functions on one line, or a line that the
/// board's codec HAT or the serial console already takes, is an error at the line's place
/// in the file.
struct GPIOAllocation {
    let hat: AudioHAT
    let console: ConsoleSettings?

    func check(gpio: ConfigReader, settings: GPIOSettings?, log: DiagnosticLog) {
        guard let settings else { return }
        var reserved = hat.occupiedLines.mapValues { "the \(hat.rawValue) HAT (\($0))" }
        if let console, AudioHAT.uartDevices.contains(console.device) {
            for (line, use) in AudioHAT.uartLines { reserved[line] = "the serial console on \(console.device) (\(use))" }
        }
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
