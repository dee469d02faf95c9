/// One channel the box can play: a live stream and what plays in its place.
public struct Channel: Sendable, Equatable {
    /// What the listener and the console call it, e.g. `City Radio`.
    public var name: String
    /// The live stream: http, https, HLS or a local file, in a format the box's FFmpeg is built with.
    public var streamURL: String
    /// Looped while the streamer is muted; nil: silence.
    public var muteMusicURL: String?
    /// Whether ad breaks announced by the stream play their ad (otherwise ignored, logged).
    public var adsEnabled: Bool
    /// Whether the box records this channel while another plays, so that switching to it
    /// keeps the delay at once instead of filling an empty buffer (memory: the maximum delay's
    /// worth of its stream, ~1 MB per minute at 128 kbps).
    public var record: Bool
    /// Hosts besides the stream's own that its titles may name ads on (`ads_from`): a
    /// club that keeps its ads on its website and streams from a provider lists the
    /// website. Lowercased host names or addresses, no scheme or port.
    public var adsFrom: [String]

    public init(
        name: String, streamURL: String, muteMusicURL: String? = nil, adsEnabled: Bool = true, record: Bool = false,
        adsFrom: [String] = []
    ) {
        self.name = name
        self.streamURL = streamURL
        self.muteMusicURL = muteMusicURL
        self.adsEnabled = adsEnabled
        self.record = record
        self.adsFrom = adsFrom.map { $0.lowercased() }
    }

    /// Why this channel's titles may not name the clip `url`, nil if they may (`ClipURL`).
    public func adURLProblem(_ url: String) -> String? {
        ClipURL.problem(url, streamURL: streamURL, adsFrom: adsFrom)
    }

    /// Schemes a mute music or ad file is fetched with; a bare path is a local file.
    /// Where mute music comes from: the network, a file, or built in (`demo://music`).
    public static let fileSchemes: Set<String> = ["http", "https", "file", "demo"]

    /// Every problem with this channel, empty when it is valid. The stream URL may use
    /// any scheme FFmpeg knows (http, https, hls, rtmp, srt, …): FFmpeg has the last word
    /// when it opens it.
    public func problems() -> [String] {
        var problems: [String] = []
        if name.trimmingSpaces().isEmpty { problems.append("a channel has no name") }
        if streamURL.isEmpty {
            problems.append("channel '\(name)' has no stream URL")
        } else if let scheme = Self.scheme(of: streamURL), !Self.isValidScheme(scheme) {
            problems.append("channel '\(name)': stream URL '\(streamURL)' has no valid scheme")
        }
        if let music = muteMusicURL, let scheme = Self.scheme(of: music), !Self.fileSchemes.contains(scheme) {
            problems.append(
                "channel '\(name)': mute music URL '\(music)' has scheme '\(scheme)'; expected "
                    + Self.fileSchemes.sorted().joined(separator: ", ") + " or a path")
        }
        for host in adsFrom where !Self.isHostName(host) {
            problems.append(
                "channel '\(name)': ads_from entry '\(host)' is not a host name or address (no scheme, port or path)")
        }
        return problems
    }

    /// A DNS name or an IPv4 or IPv6 address: letters, digits, `-`, `.`, `:`.
    static func isHostName(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 253
            && host.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-.:".unicodeScalars.contains($0))
            }
    }

    /// RFC 3986: a letter, then letters, digits, `+`, `-` or `.`.
    static func isValidScheme(_ scheme: String) -> Bool {
        guard let first = scheme.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else {
            return false
        }
        return scheme.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0))
        }
    }

    /// The scheme of `url` (`https` of `https://…`), nil for a bare path.
    static func scheme(of url: String) -> String? {
        guard let separator = url.firstRange(of: "://") else { return nil }
        return url[..<separator.lowerBound].lowercased()
    }
}
