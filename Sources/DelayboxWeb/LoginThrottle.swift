import DelayboxUnits

/// How often a wrong password may be tried: 5 failures from one address lock that address
/// out until 15 minutes after the first of them, and 20 failures from all addresses within
/// a minute lock every login for the rest of that minute (a guesser with many addresses).
/// With yescrypt and 8 characters at least, that leaves guessing hopeless while a listener
/// who mistypes a few times waits at most a quarter of an hour. Time is the caller's
/// monotonic clock.
public struct LoginThrottle: Sendable {
    public static let perClient = 5
    public static let perClientWindow = TimeAmount.minutes(15)
    public static let overall = 20
    public static let overallWindow = TimeAmount.minutes(1)
    /// Addresses remembered at most (the oldest is forgotten): the throttle's memory is bounded.
    static let clientsKept = 256

    /// Each address's latest failures (at most `perClient`), oldest first.
    private var failures: [String: [Instant]] = [:]
    /// All addresses' latest failures (at most `overall`), oldest first.
    private var recent: [Instant] = []

    public init() {}

    /// Nil when `client` may try a password now; otherwise how long it must wait.
    public func wait(client: String, now: Instant) -> TimeAmount? {
        if let times = failures[client], times.count >= Self.perClient, now - times[0] < Self.perClientWindow {
            return times[0] + Self.perClientWindow - now
        }
        if recent.count >= Self.overall, now - recent[0] < Self.overallWindow {
            return recent[0] + Self.overallWindow - now
        }
        return nil
    }

    public mutating func failed(client: String, now: Instant) {
        if failures[client] == nil, failures.count >= Self.clientsKept,
            let oldest = failures.min(by: { ($0.value.last ?? .zero) < ($1.value.last ?? .zero) })?.key
        {
            failures[oldest] = nil
        }
        failures[client, default: []].append(now)
        if failures[client]!.count > Self.perClient { failures[client]!.removeFirst() }
        recent.append(now)
        if recent.count > Self.overall { recent.removeFirst() }
    }

    /// A right password clears the address's failures.
    public mutating func succeeded(client: String) { failures[client] = nil }
}
