import DelayboxEngine

/// What the channels' delay buffers can hold at their maximum, against the board's
/// memory (issue 44): at a 60 min `max_delay` one 320 kbps stream holds ~144 MB and a
/// line-in ~690 MB, and three such recorded on a Pi Zero 2 W (512 MB) ended in the kernel's
/// OOM killer. `check-config` and a reload refuse a lineup that does not fit.
public enum ChannelMemory {
    /// A stream's buffer per minute at the most a station sends (320 kbps): held
    /// compressed, as received.
    static let streamBytesPerMinute: Int64 = 2_400_000
    /// A line-in's (`alsa:`) per minute: held uncompressed, 48 kHz 16-bit stereo.
    static let lineInBytesPerMinute: Int64 = 11_520_000
    /// What the rest of the board needs (bytes): Raspberry Pi OS Lite with its services
    /// (~100 MB), the program itself (~40 MB with its FFmpeg) and its clips (3 min of mute
    /// music and 4 ads: ~130 MB at the most).
    public static let reserveBytes: Int64 = 256 * 1_048_576

    /// The most the buffers hold together (bytes): every channel recorded in the
    /// background, and the largest of the others (any of them may be playing).
    public static func worstCaseBytes(_ lineup: ChannelLineup, maxDelay: TimeAmount) -> Int64 {
        let minutes = maxDelay.seconds / 60
        let bytes = { (channel: Channel) in
            Int64(Double(channel.streamURL.hasPrefix("alsa:") ? lineInBytesPerMinute : streamBytesPerMinute) * minutes)
        }
        let recorded = lineup.channels.filter(\.record).map(bytes).reduce(0, +)
        return recorded + (lineup.channels.filter { !$0.record }.map(bytes).max() ?? 0)
    }

    /// Why `config`'s channels do not fit a board of `ramBytes`, nil when they do.
    public static func problem(_ config: BoardConfig, ramBytes: Int64) -> String? {
        let needed = worstCaseBytes(config.channels, maxDelay: config.defaults.maxDelay)
        let budget = ramBytes - reserveBytes
        guard needed > budget else { return nil }
        let mb = { (bytes: Int64) in "\(bytes / 1_048_576) MB" }
        let recorded = config.channels.channels.filter(\.record).count
        return
            "the channels' buffers need up to \(mb(needed)) at max_delay \(config.defaults.maxDelay.wholeSeconds / 60) min "
            + "(\(recorded) recorded in the background, 320 kbps a stream, 11.5 MB a minute a line-in); this board has \(mb(ramBytes)), "
            + "\(mb(max(0, budget))) for them after \(mb(reserveBytes)) for the rest: lower max_delay or record fewer channels"
    }
}
