/// What `config show` answers: the running config's main values. A Codable answer: the
/// console's lines in this order, or its JSON (`JSONValue`).
public struct ConfigShowAnswer: Codable, Equatable, Sendable {
    public var board: String
    public var hat: String
    public var audioDevice: String
    public var periodMs: Int64
    public var periods: Int
    /// The channels' names, ", " between them.
    public var channels: String
    public var initialBufferMs: Int64
    public var maxDelayMs: Int64
    public var delayStepMs: Int64
    /// `DEVICE BAUD`, or `none`.
    public var console: String
    /// The broker's URL (and ` group NAME`), or `none`.
    public var mqtt: String

    enum CodingKeys: String, CodingKey {
        case board, hat
        case audioDevice = "audio_device"
        case periodMs = "period_ms"
        case periods, channels
        case initialBufferMs = "initial_buffer_ms"
        case maxDelayMs = "max_delay_ms"
        case delayStepMs = "delay_step_ms"
        case console, mqtt
    }

    public init(
        board: String, hat: String, audioDevice: String, periodMs: Int64, periods: Int, channels: String,
        initialBufferMs: Int64, maxDelayMs: Int64, delayStepMs: Int64, console: String, mqtt: String
    ) {
        self.board = board
        self.hat = hat
        self.audioDevice = audioDevice
        self.periodMs = periodMs
        self.periods = periods
        self.channels = channels
        self.initialBufferMs = initialBufferMs
        self.maxDelayMs = maxDelayMs
        self.delayStepMs = delayStepMs
        self.console = console
        self.mqtt = mqtt
    }
}
