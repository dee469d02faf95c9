import DelayboxConfig

/// Numbered settings for the state file's atomicity and power-cut tests: every field of
/// generation n is derived from n, so a file that mixes two generations is detectable.
extension Settings {
    public init(generation n: Int64) {
        self.init(
            delay: .milliseconds(n % 300_000), volume: Int(n % 101), channel: "channel-\(n)",
            presets: [1: n % 1_000, 2: (n * 7) % 300_000, 3: n % 300_000], adsEnabled: n % 2 == 0)
    }

    /// The generation these settings are, if they are exactly one.
    public var generation: Int64? {
        guard let n = channel.flatMap({ Int64($0.dropFirst("channel-".count)) }), self == Settings(generation: n) else {
            return nil
        }
        return n
    }
}
