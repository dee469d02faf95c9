/// What a console command that changes a setting or the config answers: `result: ok` and
/// what it changed — a config key and its value, a channel and its URL, the test tone, the
/// update or the board asked for, a group's line sent, the Wi-Fi asked for — and whether it is saved (`no: config save keeps it`, or the file).
/// A Codable answer: the console's lines in this order, or its JSON (`JSONValue`).
public struct ResultAnswer: Codable, Equatable, Sendable {
    public var result = "ok"
    public var key: String?
    public var value: String?
    public var channel: String?
    public var url: String?
    public var tone: String?
    public var update: String?
    public var board: String?
    public var group: String?
    public var wifi: String?
    public var reset: String?
    /// A venue change: what the box is now.
    public var venue: String?
    /// A box let into a venue: its join code, and the short key its page may fetch the
    /// code by from the hub (`VenueJoinKeys`, shown `ABCD-EFGH`).
    public var code: String?
    public var passkey: String?
    public var saved: String?

    /// What `config set` and the channel commands say of what they changed.
    public static let unsaved = "no: `config save` keeps it"

    public init(
        key: String? = nil, value: String? = nil, channel: String? = nil, url: String? = nil, tone: String? = nil,
        update: String? = nil, board: String? = nil, group: String? = nil, wifi: String? = nil, reset: String? = nil,
        venue: String? = nil, code: String? = nil, passkey: String? = nil, saved: String? = nil
    ) {
        self.key = key
        self.value = value
        self.channel = channel
        self.url = url
        self.tone = tone
        self.update = update
        self.board = board
        self.group = group
        self.wifi = wifi
        self.reset = reset
        self.venue = venue
        self.code = code
        self.passkey = passkey
        self.saved = saved
    }
}
