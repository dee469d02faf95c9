import DelayboxUnits

/// Who is logged in: a session per browser that logged in, known by a random token in an
/// HttpOnly cookie, with its own CSRF token the page sends back with every change. Time
/// is the caller's monotonic clock, so expiry is tested in virtual time.
public struct WebSessions: Sendable {
    public struct Session: Sendable, Equatable {
        /// The cookie's value: 32 random bytes in hex.
        public let token: String
        /// What the page sends in `X-Delaybox-CSRF` with every change: 32 random bytes in hex.
        public let csrf: String
        let opened: Instant
        var lastSeen: Instant
    }

    /// A session unused this long ends: a phone left a month logs in again.
    public static let idleLimit = TimeAmount.days(30)
    /// Sessions kept at most; a new one ends the least recently used.
    public static let limit = 16

    private var sessions: [String: Session] = [:]

    public init() {}

    public var count: Int { sessions.count }

    /// A new session from 64 random bytes (the first half its token, the second its CSRF token).
    public mutating func open(random: [UInt8], now: Instant) -> Session {
        precondition(random.count == 64, "a session takes 64 random bytes")
        let session = Session(
            token: Self.hex(random.prefix(32)), csrf: Self.hex(random.suffix(32)), opened: now, lastSeen: now)
        if sessions.count >= Self.limit, let oldest = sessions.values.min(by: { $0.lastSeen < $1.lastSeen }) {
            sessions[oldest.token] = nil
        }
        sessions[session.token] = session
        return session
    }

    /// The session `token` names, if it is open and was used within the idle limit; using
    /// it counts as use.
    public mutating func find(token: String?, now: Instant) -> Session? {
        guard let token, var session = sessions[token] else { return nil }
        guard now - session.lastSeen < Self.idleLimit else {
            sessions[token] = nil
            return nil
        }
        session.lastSeen = now
        sessions[token] = session
        return session
    }

    public mutating func close(token: String) { sessions[token] = nil }

    /// Every session ends (the password changed).
    public mutating func closeAll() { sessions.removeAll() }

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        var out = ""
        for byte in bytes {
            out.unicodeScalars.append(digits[Int(byte >> 4)])
            out.unicodeScalars.append(digits[Int(byte & 15)])
        }
        return out
    }
}
