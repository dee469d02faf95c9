import DelayboxUnits

/// The short keys a hub hands its join codes out by (issue 70): when the owner lets a box in
/// on the hub's page, the page shows a key of 8 letters and digits (`K7QF-2MXP`) beside the
/// long code; typed into the joining box's page next to the hub it heard on the LAN, that
/// box fetches its code from the hub's page with it (`venue join HUB KEY`). A key is used
/// once, lasts 15 minutes, and five wrong keys void every key out (a neighbour guessing
/// 40 bits five times a box), so the owner adds the box again.
public struct VenueJoinKeys: Sendable {
    /// How long a key stays good.
    public static let lifetime = TimeAmount.seconds(15 * 60)
    /// Wrong keys tolerated before every key is voided.
    public static let wrongAllowed = 5
    /// The characters a key is made of: no 0/O, 1/I, so a key read aloud is typed right.
    static let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
    static let length = 8

    private var keys: [(key: String, code: VenueJoinCode, until: Instant)] = []
    private var wrong = 0

    public init() {}

    /// A fresh key for `code`, good until `now` + `lifetime`; a box's earlier key is replaced.
    public mutating func mint(for code: VenueJoinCode, now: Instant) -> String {
        var generator = SystemRandomNumberGenerator()
        let key = String((0..<Self.length).map { _ in Self.alphabet.randomElement(using: &generator)! })
        keys.removeAll { $0.code.box == code.box || $0.until <= now }
        keys.append((key, code, now + Self.lifetime))
        return key
    }

    /// The code `typed` (a key, any case, `-` and spaces ignored) stands for, used up; else
    /// why not.
    public mutating func handOver(_ typed: String, now: Instant) -> Result<VenueJoinCode, HelperRequestFrame.Problem> {
        keys.removeAll { $0.until <= now }
        let key = Self.normalized(typed)
        if let found = keys.firstIndex(where: { $0.key == key }) {
            wrong = 0
            return .success(keys.remove(at: found).code)
        }
        wrong += 1
        guard wrong < Self.wrongAllowed else {
            (keys, wrong) = ([], 0)
            return .failure(.init("too many wrong keys: every key is void; let the box in again on the hub's page"))
        }
        return .failure(.init("no such key on this hub (a key lasts 15 minutes and is used once)"))
    }

    /// `text` as a key is kept: upper case, without `-` and spaces.
    public static func normalized(_ text: String) -> String {
        String(text.uppercased().filter { $0 != "-" && $0 != " " })
    }

    /// Whether `text` reads as a key (`normalized` of 8 of the alphabet's characters).
    public static func isKey(_ text: String) -> Bool {
        let key = normalized(text)
        return key.count == length && key.allSatisfy(alphabet.contains)
    }

    /// `key` as the page shows it: two groups of four.
    public static func shown(_ key: String) -> String { "\(key.prefix(4))-\(key.dropFirst(4))" }
}
