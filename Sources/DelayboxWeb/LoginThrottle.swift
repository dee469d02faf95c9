import DelayboxUnits

/// How often a wrong password may be tried: 5 failures from one network (`ClientNetwork`:
/// an IPv4 address, an IPv6 /64) lock that network out until 15 minutes after the first of
/// them, and 20 failures from all networks within a minute lock every login for the rest of
/// that minute (a guesser with many networks). Sessions already open are never locked out.
/// With yescrypt and 8 characters at least, that leaves guessing hopeless while a listener
/// who mistypes a few times waits at most a quarter of an hour. Time is the caller's
/// monotonic clock.
public struct LoginThrottle: Sendable {
    public static let perNetwork = 5
    public static let perNetworkWindow = TimeAmount.minutes(15)
    public static let overall = 20
    public static let overallWindow = TimeAmount.minutes(1)
    /// Networks remembered at most (the oldest is forgotten): the throttle's memory is bounded.
    static let networksKept = 256

    /// Each network's latest failures (at most `perNetwork`), oldest first.
    private var failures: [String: [Instant]] = [:]
    /// All networks' latest failures (at most `overall`), oldest first, with their network.
    private var recent: [(network: String, at: Instant)] = []

    public init() {}

    /// Nil when a peer on `network` may try a password now; otherwise how long it must wait.
    public func wait(network: String, now: Instant) -> TimeAmount? {
        if let times = failures[network], times.count >= Self.perNetwork, now - times[0] < Self.perNetworkWindow {
            return times[0] + Self.perNetworkWindow - now
        }
        if recent.count >= Self.overall, now - recent[0].at < Self.overallWindow {
            return recent[0].at + Self.overallWindow - now
        }
        return nil
    }

    /// A password about to be checked: nil and counted as a failure at once when a peer on
    /// `network` may try now (a right one takes it back: `succeeded`), else how long to
    /// wait. One step, so that guesses sent in parallel — each checked while the others'
    /// slow hashes run — cannot all pass before the first failure is recorded.
    public mutating func attempt(network: String, now: Instant) -> TimeAmount? {
        if let wait = wait(network: network, now: now) { return wait }
        failed(network: network, now: now)
        return nil
    }

    public mutating func failed(network: String, now: Instant) {
        if failures[network] == nil, failures.count >= Self.networksKept,
            let oldest = failures.min(by: { ($0.value.last ?? .zero) < ($1.value.last ?? .zero) })?.key
        {
            failures[oldest] = nil
        }
        failures[network, default: []].append(now)
        if failures[network]!.count > Self.perNetwork { failures[network]!.removeFirst() }
        recent.append((network, now))
        if recent.count > Self.overall { recent.removeFirst() }
    }

    /// A right password clears the network's failures, and takes back its attempt from
    /// everyone's.
    public mutating func succeeded(network: String) {
        failures[network] = nil
        if let last = recent.lastIndex(where: { $0.network == network }) { recent.remove(at: last) }
    }
}
