import DelayboxEngine
import DelayboxNetwork

extension BoardConfig {
    /// Standard serial speeds.
    static let baudRates: Set<Int> = [9_600, 19_200, 38_400, 57_600, 115_200, 230_400, 460_800, 921_600]

    /// Reads and validates a merged config document. Returns the config when there is no
    /// error, and every diagnostic either way.
    public static func read(_ document: ConfigNode) -> (config: BoardConfig?, diagnostics: [ConfigDiagnostic]) {
        read(document, log: DiagnosticLog())
    }

    /// The keys of `document` that hold secrets (`mqtt.password`, …), as reading it finds
    /// them: what `config get`, `config set` and every refusal show as set, never as text.
    public static func secretKeys(in document: ConfigNode) -> Set<String> {
        let log = DiagnosticLog()
        _ = read(document, log: log)
        return log.secretKeys
    }

    private static func read(_ document: ConfigNode, log: DiagnosticLog) -> (
        config: BoardConfig?, diagnostics: [ConfigDiagnostic]
    ) {
        let root = ConfigReader(document, path: "", log: log)
        let board = root.section("board")
        let name = board.string("name")
        let hat = board.choice("hat", as: AudioHAT.self) ?? AudioHAT.none
        let clock = board.choice("clock", as: TimeSource.self) ?? .network
        let configTxt = board.list("config_txt").compactMap { item -> String? in
            if case .scalar(let line, _) = item { return line }
            log.error(item.location, "'board.config_txt' lists lines of text")
            return nil
        }
        board.finish()
        if name == nil { log.error(board.location ?? document.location, "the board has no 'board.name'") }

        let audio = readAudio(root.section("audio"), log: log)
        let gpioSection = root.section("gpio")
        let gpio = gpioSection.isPresent ? readGPIO(gpioSection, log: log) : nil
        let consoleSection = root.section("console")
        let console = consoleSection.isPresent ? readConsole(consoleSection) : nil
        let remoteSection = root.section("remote")
        let remote = remoteSection.isPresent ? readRemote(remoteSection, log: log) : nil
        let mqttSection = root.section("mqtt")
        let mqtt = mqttSection.isPresent ? readMQTT(mqttSection, log: log) : nil
        let webSection = root.section("web")
        let web = webSection.isPresent ? readWeb(webSection) : nil
        let wifiSection = root.section("wifi")
        let wifi = wifiSection.isPresent ? readWiFi(wifiSection, log: log) : nil
        let updateWindow = readUpdate(root.section("update"), log: log)
        let channels = readChannels(root, log: log)
        let defaults = readDefaults(root.section("defaults"), log: log)
        root.finish()

        GPIOAllocation(hat: hat, console: console, configTxt: configTxt).check(
            gpio: gpioSection, settings: gpio, log: log)
        let diagnostics = log.diagnostics
        guard !diagnostics.contains(where: { $0.severity == .error }), let name, let audio, let channels, let defaults
        else {
            return (nil, diagnostics)
        }
        return (
            BoardConfig(
                name: name, hat: hat, configTxt: configTxt, audio: audio, gpio: gpio, console: console,
                remote: remote, channels: channels, defaults: defaults, mqtt: mqtt, web: web, wifi: wifi, clock: clock,
                updateWindow: updateWindow), diagnostics
        )
    }

    private static func readAudio(_ audio: ConfigReader, log: DiagnosticLog) -> AudioSettings? {
        defer { audio.finish() }
        guard audio.isPresent else {
            log.error(SourceLocation(file: "", line: 0, column: 0), "the board has no 'audio' section")
            return nil
        }
        let device = audio.string("device")
        if device == nil, let location = audio.location { log.error(location, "'audio.device' is missing") }
        let rate = audio.int("rate", in: 8_000...192_000) ?? AudioSettings.engineRate
        if rate != AudioSettings.engineRate, let location = audio.value("rate")?.location {
            // Said here, not at the first open of the device on the board.
            log.error(
                location,
                "'audio.rate' is \(rate): the box plays \(AudioSettings.engineRate) Hz; a codec that needs "
                    + "another rate gets it through its plughw: name or default, which convert")
        }
        let settings = AudioSettings(
            device: device ?? "",
            fallback: audio.string("fallback"),
            mixer: audio.string("mixer"),
            rate: rate,
            format: audio.choice("format", as: SampleFormat.self) ?? .s16,
            period: .milliseconds(audio.milliseconds("period", in: 5...200) ?? 20),
            periods: audio.int("periods", in: 2...16) ?? 4,
            outputLatency: .milliseconds(
                audio.milliseconds(
                    "output_latency", orNumberUnder: "output_latency_ms",
                    in: 0...AudioSettings.maximumOutputLatency.milliseconds) ?? 0)
        )
        return device == nil ? nil : settings
    }

    private static func readGPIO(_ gpio: ConfigReader, log: DiagnosticLog) -> GPIOSettings {
        defer { gpio.finish() }
        let chip = gpio.string("chip") ?? "gpiochip0"
        let buttons = gpio.section("buttons").namedSections().compactMap { name, reader -> ButtonSettings? in
            defer { reader.finish() }
            guard let line = reader.int("line", in: 0...63) else {
                if reader.value("line") == nil, let location = reader.location {
                    log.error(location, "button '\(name)' has no 'line'")
                }
                return nil
            }
            let button = ButtonSettings(
                name: name, line: line,
                bias: reader.choice("bias", as: LineBias.self) ?? .pullUp,
                activeLow: reader.bool("active_low") ?? true,
                debounce: .milliseconds(reader.milliseconds("debounce", in: 1...200) ?? 10),
                press: reader.choice("press", as: ControlAction.self),
                longPress: reader.choice("long_press", as: ControlAction.self),
                doublePress: reader.choice("double_press", as: ControlAction.self),
                hold: reader.choice("hold", as: ControlAction.self))
            if button.press == nil, button.longPress == nil, button.doublePress == nil, button.hold == nil,
                let location = reader.location
            {
                log.warning(location, "button '\(name)' does nothing (no press, long_press, double_press or hold)")
            }
            return button
        }
        let encoderSection = gpio.section("encoder")
        var encoder: EncoderSettings?
        if encoderSection.isPresent {
            defer { encoderSection.finish() }
            let a = encoderSection.int("a", in: 0...63), b = encoderSection.int("b", in: 0...63)
            if let a, let b {
                encoder = EncoderSettings(
                    a: a, b: b, push: encoderSection.int("push", in: 0...63),
                    bias: encoderSection.choice("bias", as: LineBias.self) ?? .pullUp,
                    stepsPerDetent: encoderSection.int("steps_per_detent", in: 1...4) ?? 4,
                    pushAction: encoderSection.choice("push_action", as: ControlAction.self),
                    pushLongAction: encoderSection.choice("push_long_action", as: ControlAction.self))
                if let steps = encoder?.stepsPerDetent, steps == 3,
                    let location = encoderSection.value("steps_per_detent")?.location
                {
                    log.error(location, "'gpio.encoder.steps_per_detent' is 3; encoders have 1, 2 or 4")
                }
            } else if let location = encoderSection.location {
                log.error(location, "the encoder needs both lines 'a' and 'b'")
            }
        }
        let leds = gpio.section("leds").namedSections().compactMap { name, reader -> LEDSettings? in
            defer { reader.finish() }
            guard let line = reader.int("line", in: 0...63) else { return nil }
            return LEDSettings(name: name, line: line, activeLow: reader.bool("active_low") ?? false)
        }
        return GPIOSettings(chip: chip, buttons: buttons, encoder: encoder, leds: leds)
    }

    private static func readConsole(_ console: ConfigReader) -> ConsoleSettings {
        defer { console.finish() }
        let baud = console.int("baud", in: 1_200...4_000_000) ?? 115_200
        if !baudRates.contains(baud), let location = console.value("baud")?.location {
            console.log.error(
                location,
                "'console.baud' is \(baud); use a standard rate (\(baudRates.sorted().map(String.init).joined(separator: ", ")))"
            )
        }
        return ConsoleSettings(device: console.string("device") ?? "/dev/ttyAMA0", baud: baud)
    }

    /// `web:` — on unless `enabled: false`; `port` 80 unless said.
    private static func readWeb(_ web: ConfigReader) -> WebSettings? {
        defer { web.finish() }
        let enabled = web.bool("enabled") ?? true
        let port = web.int("port", in: 1...65_535) ?? 80
        return enabled ? WebSettings(port: port) : nil
    }

    /// `wifi:` — on unless `enabled: false`; the hotspot after `hotspot_after` (a duration,
    /// or `never`) without a network, with `hotspot_password` or the derived one.
    private static func readWiFi(_ wifi: ConfigReader, log: DiagnosticLog) -> WiFiSettings? {
        defer { wifi.finish() }
        var settings = WiFiSettings()
        if wifi.string("hotspot_after")?.lowercased() == "never" {
            settings.hotspotAfter = nil
        } else if let ms = wifi.milliseconds("hotspot_after", in: 10_000...86_400_000) {
            settings.hotspotAfter = .milliseconds(ms)
        }
        if let password = wifi.secret("hotspot_password"), let location = wifi.value("hotspot_password")?.location {
            // An empty password would be an open network's; a hotspot is always WPA2.
            let text = password.revealed
            if let problem = text.isEmpty ? "give 8-63 characters" : WiFiCredentials.passwordProblem(text) {
                log.error(location, "'wifi.hotspot_password': \(problem)")
            } else {
                settings.hotspotPassword = password
            }
        }
        return (wifi.bool("enabled") ?? true) ? settings : nil
    }

    /// `update:` — the window in which a new release may restart a box that plays.
    private static func readUpdate(_ update: ConfigReader, log: DiagnosticLog) -> UpdateWindow {
        defer { update.finish() }
        guard let text = update.string("window"), let location = update.value("window")?.location else {
            return .standard
        }
        guard let window = UpdateWindow(parsing: text) else {
            log.error(
                location,
                "'update.window' is '\(text)': give the local hours as HH:MM-HH:MM (e.g. 04:00-05:00), or none")
            return .standard
        }
        return window
    }

    private static func readChannels(_ root: ConfigReader, log: DiagnosticLog) -> ChannelLineup? {
        let items = root.list("channels")
        var channels: [Channel] = []
        for (index, item) in items.enumerated() {
            let reader = ConfigReader(item, path: "channels[\(index)]", log: log)
            defer { reader.finish() }
            guard reader.isPresent else { continue }
            let channel = Channel(
                name: reader.string("name") ?? "", streamURL: reader.string("url") ?? "",
                muteMusicURL: reader.string("mute_music"), adsEnabled: reader.bool("ads") ?? true,
                record: reader.bool("record") ?? false, adsFrom: reader.strings("ads_from"))
            for problem in channel.problems() { log.error(item.location, problem) }
            channels.append(channel)
        }
        do {
            return try ChannelLineup(channels)
        } catch {
            // Per-channel problems were reported at each channel; what is left is the list's.
            let location =
                root.value("channels")?.location ?? root.location ?? SourceLocation(file: "", line: 0, column: 0)
            for problem in error.problems where !channels.contains(where: { $0.problems().contains(problem) }) {
                log.error(location, problem)
            }
            return nil
        }
    }

    private static func readDefaults(_ defaults: ConfigReader, log: DiagnosticLog) -> Defaults? {
        defer { defaults.finish() }
        let engine = EngineConfiguration()
        let maxDelay =
            defaults.milliseconds("max_delay", in: EngineConfiguration.maxDelayRange).map(TimeAmount.milliseconds)
            ?? engine.maxDelay
        let settings = Defaults(
            initialBuffer: defaults.milliseconds("initial_buffer", in: EngineConfiguration.initialBufferRange)
                .map(TimeAmount.milliseconds) ?? engine.initialBuffer,
            maxDelay: maxDelay,
            delay: .milliseconds(defaults.milliseconds("delay", in: 0...maxDelay.milliseconds) ?? 5_000),
            delayStep: .milliseconds(defaults.milliseconds("delay_step", in: 10...10_000) ?? 100),
            volume: defaults.int("volume", in: 0...100) ?? 50,
            clipCacheMB: defaults.int("clip_cache_mb", in: 1...4_096) ?? 64,
            feedbackSounds: defaults.bool("feedback_sounds") ?? true,
            maxVolume: defaults.int("max_volume", in: 0...100) ?? 100,
            startVolumeMax: defaults.int("start_volume_max", in: 0...100) ?? 100)
        if settings.volume > settings.maxVolume,
            let location = defaults.value("volume")?.location ?? defaults.value("max_volume")?.location
        {
            log.error(
                location,
                "'defaults.volume' (\(settings.volume)) is above 'defaults.max_volume' (\(settings.maxVolume))")
        }
        return settings
    }
}
