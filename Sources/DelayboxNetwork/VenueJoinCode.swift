/// What a box needs to join a venue, as the hub's page gives it to the owner to paste into
/// the box's page (issue 70): the hub's address and broker port, the group, the box's own
/// user and its password — `delaybox-venue:HUB/PORT/GROUP/BOX/PASSWORD`. It is the box's
/// credential: shown only on the hub's page behind its password, never sent over MQTT.
public struct VenueJoinCode: Sendable, Equatable {
    public var hub: String
    public var port: Int
    public var group: String
    public var box: String
    public var password: String

    static let prefix = "delaybox-venue:"

    public init(hub: String, port: Int, group: String, box: String, password: String) {
        (self.hub, self.port, self.group, self.box, self.password) = (hub, port, group, box, password)
    }

    public var text: String { Self.prefix + [hub, String(port), group, box, password].joined(separator: "/") }

    /// The code in `text` (spaces around it ignored), each part checked; else why not.
    public static func parse(_ text: String) -> Result<VenueJoinCode, HelperRequestFrame.Problem> {
        let trimmed = text.trimmingSpaces
        guard trimmed.hasPrefix(prefix) else {
            return .failure(.init("a venue's join code begins '\(prefix)' (the hub's page gives it)"))
        }
        let parts = trimmed.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        guard parts.count == 5, let port = Int(parts[1]), (1...65535).contains(port) else {
            return .failure(.init("this join code is cut short or altered: copy it again from the hub's page"))
        }
        do throws(HelperRequestFrame.Problem) {
            return .success(
                VenueJoinCode(
                    hub: try hubAddress(parts[0]), port: port, group: try name(parts[2], "group"),
                    box: try name(parts[3], "box"), password: try password(parts[4])))
        } catch {
            return .failure(error)
        }
    }

    /// A group's or a box's name as a venue's broker takes it: one topic level, and a user
    /// in mosquitto's password file — letters, digits, `-` and `_`, 1–64.
    public static func name(_ text: String, _ what: String) throws(HelperRequestFrame.Problem) -> String {
        guard (1...64).contains(text.utf8.count),
            text.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == 0x2d || $0 == 0x5f })
        else {
            throw .init("a \(what)'s name is 1-64 letters, digits, - and _, not '\(text.prefix(70))'")
        }
        return text
    }

    /// A broker password the box made: 16-128 printable ASCII characters, no space (a line
    /// of mosquitto's password file).
    public static func password(_ text: String) throws(HelperRequestFrame.Problem) -> String {
        guard (16...128).contains(text.utf8.count), text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
            throw .init("a venue password is 16-128 printable characters without spaces")
        }
        return text
    }

    /// The hub as chrony's `server` line and a broker URL take it: an IPv4 or IPv6 address
    /// or a host name (letters, digits, `.`, `-`, `:`), not beginning with `-`, 1–253.
    public static func hubAddress(_ text: String) throws(HelperRequestFrame.Problem) -> String {
        guard (1...253).contains(text.utf8.count), !text.hasPrefix("-"),
            text.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == 0x2e || $0 == 0x2d || $0 == 0x3a })
        else {
            throw .init("'\(text.prefix(70))' is not a hub's address or name")
        }
        return text
    }

    /// A fresh password for a venue's user: 24 letters and digits (~143 bits).
    public static func newPassword() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<24).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a)
    }
}

extension String {
    /// Without the spaces, tabs and line ends around it.
    fileprivate var trimmingSpaces: String {
        let isSpace = { (c: Character) in c == " " || c == "\t" || c == "\n" || c == "\r" }
        return String(drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
