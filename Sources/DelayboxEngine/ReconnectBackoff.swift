/// How long the stream client waits before each reconnect attempt: exponential, with
/// jitter so that many boxes do not reconnect to a restarted server in lockstep, capped.
public struct ReconnectBackoff: Sendable {
    /// Wait before the first retry.
    public var initial: TimeAmount
    /// The longest wait.
    public var cap: TimeAmount
    /// Fraction of each wait that is randomised (0.2: ±20 %).
    public var jitter: Double
    /// Failed attempts since the last success.
    public private(set) var attempts = 0

    public init(initial: TimeAmount = .milliseconds(250), cap: TimeAmount = .seconds(30), jitter: Double = 0.2) {
        self.initial = initial
        self.cap = cap
        self.jitter = jitter
    }

    /// The wait before the next attempt (to the millisecond); each call counts one failed
    /// attempt.
    public mutating func nextDelay(using random: inout some RandomNumberGenerator) -> TimeAmount {
        let exponent = min(attempts, 30)
        attempts += 1
        let ceiling = Double(cap.milliseconds)
        let base = min(ceiling, Double(initial.milliseconds) * Double(1 << exponent))
        let spread = base * jitter
        let delay = base + Double.random(in: -spread...spread, using: &random)
        return .milliseconds(Int64(min(ceiling, max(0, delay)).rounded()))
    }

    /// A connection succeeded: the next failure starts from the initial wait again.
    public mutating func reset() { attempts = 0 }

    /// How long a connection must have delivered before its end counts as a success: one
    /// that ends sooner (a server that closes at once, a recording read at network speed)
    /// is retried as a failed one, with the wait growing, instead of at once forever.
    public static let stableConnection = TimeAmount.seconds(10)

    /// A link to a recording was read to its end (far more audio than time came): the next
    /// waits are the longest (`cap`), so that a podcast or last week's match pasted as a
    /// station is fetched a couple of times a minute at most — still tried, in case the link
    /// turns live — instead of again and again as a dropped live stream is.
    public mutating func recordingEnded() { attempts = max(attempts, 30) }

    /// A connection that delivered audio ended after `lasted`: a success only when it held.
    public mutating func connectionEnded(after lasted: TimeAmount) {
        if lasted >= Self.stableConnection { reset() }
    }
}
