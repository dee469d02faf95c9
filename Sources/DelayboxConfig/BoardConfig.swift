import DelayboxEngine

/// Everything a board file says: its sound hardware, controls, console, channels and
/// defaults (docs/board-config.md). Read by `BoardConfig.read(from:)`, validated as read.
public struct BoardConfig: Sendable, Equatable {
    public var name: String
    public var hat: AudioHAT
    /// Lines `/boot/firmware/config.txt` needs for this board (dtoverlay, enable_uart).
    public var configTxt: [String]
    public var audio: AudioSettings
    /// Nil: the board has no buttons, encoder or LEDs.
    public var gpio: GPIOSettings?
    /// Nil: no serial console.
    public var console: ConsoleSettings?
    /// Nil: no remote control.
    public var remote: RemoteSettings?
    public var channels: ChannelLineup
    public var defaults: Defaults
    /// Nil: no MQTT.
    public var mqtt: MQTTSettings? = nil
    /// Nil: no web page (no `web:` section, or `web.enabled: false`).
    public var web: WebSettings? = nil
    /// Nil: the box leaves its Wi-Fi alone (no `wifi:` section, or `wifi.enabled: false`).
    public var wifi: WiFiSettings? = nil
    /// `board.clock`: what keeps the wall clock right, which an ad break's START needs.
    public var clock: TimeSource = .network
    /// `update.window`: when a new release may restart a box that plays.
    public var updateWindow: UpdateWindow = .standard
}

/// `board.clock` (docs/board-config.md): a Pi has no real-time clock, so its time is
/// believed only once the network time has set it; a board with a battery-backed clock
/// (a Pi 5 with its battery, an RTC HAT), or a host whose system keeps time, is believed
/// from the start.
public enum TimeSource: String, Sendable, CaseIterable {
    /// Believed once the kernel says it is synchronised (systemd-timesyncd, chrony, ntpd).
    case network
    /// Believed always: a battery-backed real-time clock.
    case rtc
}

/// `web:` — the page on the box (docs/web.md).
public struct WebSettings: Sendable, Equatable {
    /// The TCP port: 80 on a board (systemd passes it: socket activation), above 1023 on a host.
    public var port: Int
    public init(port: Int) { self.port = port }
}

public struct AudioSettings: Sendable, Equatable {
    /// The one rate the engine plays (Hz); the config refuses others with the way out.
    public static let engineRate = 48_000
    /// The most `output_latency` may say (ms): beyond any speaker's buffer.
    public static let maximumOutputLatency = TimeAmount.seconds(2)
    /// An ALSA device name (`hw:CARD=sndrpihifiberry,DEV=0`, `default`, a plugin), or
    /// `wav:PATH` / `null` for hosts without a sound card.
    public var device: String
    /// Where audio goes when `device` cannot be opened at start (the simulated host:
    /// ALSA's default device if there is one, else a WAV file); nil: keep retrying the device.
    public var fallback: String?
    /// The codec's mixer control for hardware volume; nil: software volume.
    public var mixer: String?
    public var rate: Int
    public var format: SampleFormat
    public var period: TimeAmount
    public var periods: Int
    /// What the output adds after ALSA that `snd_pcm_delay` cannot see (ms): a Bluetooth
    /// speaker's A2DP buffer (150-250), an HDMI receiver's processing, a USB DAC's FIFO.
    /// Counted in the heard delay: playout runs that much earlier.
    public var outputLatency = TimeAmount.zero
}

public enum LineBias: String, Sendable, CaseIterable {
    case asIs = "as-is", pullUp = "pull-up", pullDown = "pull-down", disabled
}

public struct ButtonSettings: Sendable, Equatable {
    public var name: String
    public var line: Int
    public var bias: LineBias
    public var activeLow: Bool
    /// Edges closer than this to the one before are bounce (`debounce`).
    public var debounce: TimeAmount
    public var press: ControlAction?
    public var longPress: ControlAction?
    public var doublePress: ControlAction?
    /// Repeated while held (e.g. volume_up).
    public var hold: ControlAction?

    public init(
        name: String, line: Int, bias: LineBias = .pullUp, activeLow: Bool = true,
        debounce: TimeAmount = .milliseconds(10),
        press: ControlAction? = nil, longPress: ControlAction? = nil, doublePress: ControlAction? = nil,
        hold: ControlAction? = nil
    ) {
        self.name = name
        self.line = line
        self.bias = bias
        self.activeLow = activeLow
        self.debounce = debounce
        self.press = press
        self.longPress = longPress
        self.doublePress = doublePress
        self.hold = hold
    }
}

public struct EncoderSettings: Sendable, Equatable {
    public var a: Int
    public var b: Int
    public var push: Int?
    public var bias: LineBias
    /// Quadrature steps per mechanical detent: 1, 2 or 4.
    public var stepsPerDetent: Int
    public var pushAction: ControlAction?
    public var pushLongAction: ControlAction?

    public init(
        a: Int, b: Int, push: Int? = nil, bias: LineBias = .pullUp, stepsPerDetent: Int = 4,
        pushAction: ControlAction? = nil, pushLongAction: ControlAction? = nil
    ) {
        self.a = a
        self.b = b
        self.push = push
        self.bias = bias
        self.stepsPerDetent = stepsPerDetent
        self.pushAction = pushAction
        self.pushLongAction = pushLongAction
    }
}

public struct LEDSettings: Sendable, Equatable {
    public var name: String
    public var line: Int
    public var activeLow: Bool
}

public struct GPIOSettings: Sendable, Equatable {
    /// The GPIO chip by name or path (`gpiochip0`, `/dev/gpiochip0`, a gpio-sim label).
    public var chip: String
    public var buttons: [ButtonSettings]
    public var encoder: EncoderSettings?
    public var leds: [LEDSettings]

    public init(chip: String, buttons: [ButtonSettings], encoder: EncoderSettings?, leds: [LEDSettings]) {
        self.chip = chip
        self.buttons = buttons
        self.encoder = encoder
        self.leds = leds
    }
}

public struct ConsoleSettings: Sendable, Equatable {
    /// `/dev/ttyAMA0`, `/dev/ttyS0`, `/dev/ttyGS0`, or `pty` (a pseudo-terminal, on hosts).
    public var device: String
    public var baud: Int
}

public struct Defaults: Sendable, Equatable {
    public var initialBuffer: TimeAmount
    /// The longest delay the box keeps audio for (`max_delay`).
    public var maxDelay: TimeAmount
    /// The delay at first start (later starts use the saved one).
    public var delay: TimeAmount
    /// What one encoder detent or button press changes the delay by.
    public var delayStep: TimeAmount
    /// 0-100 on the perceptual curve.
    public var volume: Int
    /// Megabytes the fetched mute music and ad files may take on disk.
    public var clipCacheMB: Int
    /// Whether the controls answer with sounds (clicks, tones, the delay read out).
    public var feedbackSounds: Bool
    /// The loudest any door may set (0-100, `max_volume`): an installer's cap, for a pub's
    /// amplifier or a child's room.
    public var maxVolume: Int = 100
    /// The loudest the box starts at (0-100, `start_volume_max`): a volume saved louder
    /// (left loud at night) comes back at this in the morning.
    public var startVolumeMax: Int = 100
}
