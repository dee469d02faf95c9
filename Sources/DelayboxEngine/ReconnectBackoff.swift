/// How long the stream client waits before each reconnect attempt: exponential, with
/// jitter so that many boxes do not reconnect to a restarted server in lockstep, capped.
public struct ReconnectBackoff: Sendable {
    /// Wait before the first retry (ms).
    public var initialMs: Int64
    /// The longest wait (ms).
    public var capMs: Int64
    /// Fraction of each wait that is randomised (0.2: ±20 %).
    public var jitter: Double
    /// Failed attempts since the last success.
    public private(set) var attempts = 0

    public init(initialMs: Int64 = 250, capMs: Int64 = 30_000, jitter: Double = 0.2) {
        self.initialMs = initialMs
        self.capMs = capMs
        self.jitter = jitter
    }

    /// The wait before the next attempt, in ms; each call counts one failed attempt.
    public mutating func nextDelayMs(using random: inout some RandomNumberGenerator) -> Int64 {
        let exponent = min(attempts, 30)
        attempts += 1
        let base = min(Double(capMs), Double(initialMs) * Double(1 << exponent))
        let spread = base * jitter
        let delay = base + Double.random(in: -spread...spread, using: &random)
        return Int64(min(Double(capMs), max(0, delay)).rounded())
    }

    /// A connection succeeded: the next failure starts from the initial wait again.
    public mutating func reset() { attempts = 0 }
}
