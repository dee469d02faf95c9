/// What `board` answers: the board config in force, its audio device and mixer, and its
/// front panel's lines. A Codable answer: the console's lines in this order, or its JSON.
public struct BoardAnswer: Codable, Equatable, Sendable {
    public var board: String
    public var audioDevice: String
    /// The hardware mixer's control, or `software`.
    public var mixer: String
    /// `play=GPIO17 next=GPIO27`, when the board has buttons.
    public var buttons: String?
    /// `A=GPIO5 B=GPIO6 push=GPIO13`, when it has a knob.
    public var encoder: String?

    enum CodingKeys: String, CodingKey {
        case board
        case audioDevice = "audio_device"
        case mixer, buttons, encoder
    }

    public init(board: String, audioDevice: String, mixer: String, buttons: String? = nil, encoder: String? = nil) {
        self.board = board
        self.audioDevice = audioDevice
        self.mixer = mixer
        self.buttons = buttons
        self.encoder = encoder
    }
}
