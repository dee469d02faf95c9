import DelayboxUnits

/// An HLS playlist as the box follows a live station itself (issue 67): a media playlist's
/// segments, or a master playlist's variant to play. The box fetches the segments the
/// moment they are listed (`HLSPollSchedule`), so each arrives when the station made it,
/// not when a reload schedule of its own came round — which is all the station's clock
/// can be read from. What it does not follow (encrypted segments, fMP4's `EXT-X-MAP`,
/// byte ranges, alternate audio renditions, a finished playlist) is left to FFmpeg's own
/// demuxer, as before. The text comes from a stranger: sizes, counts and every number are
/// checked before use, and every segment must be an http or https URL (`ClipURL`).
public struct HLSPlaylist: Sendable, Equatable {
    /// One listed segment.
    public struct Segment: Sendable, Equatable {
        /// Its media sequence number.
        public var sequence: Int
        /// Its absolute URL.
        public var url: String
        /// Its duration (`EXTINF`).
        public var duration: TimeAmount
    }

    /// What a playlist's text says.
    public enum Reading: Sendable, Equatable {
        /// A live media playlist the box follows.
        case media(HLSPlaylist)
        /// A master playlist: the variant to read next (audio-only ones first, then the
        /// highest bandwidth).
        case variant(String)
        /// Valid, but a kind the box leaves to FFmpeg's demuxer, and why.
        case leftToFFmpeg(String)
        /// Not a playlist the box can play, and why.
        case refused(String)
    }

    /// `EXT-X-TARGETDURATION`: no segment is longer.
    public var targetDuration: TimeAmount
    /// The segments listed, oldest first, numbered without gaps.
    public var segments: [Segment]

    /// The longest playlist read (bytes): a live window of hours of 2 s segments.
    public static let maxBytes = 2_000_000
    /// Segments kept from one playlist: the newest are the ones played.
    public static let maxSegments = 2_000
    /// The longest target duration followed (s): longer is no live station's.
    static let maxTargetSeconds = 120
    /// Media sequence numbers above this are refused: the numbers are added to.
    static let maxSequence = 1 << 52

    /// Reads `text`, fetched from `url` (after redirects: relative URIs resolve against it).
    public static func read(_ text: String, from url: String) -> Reading {
        guard text.utf8.count <= maxBytes else {
            return .refused("the HLS playlist is larger than \(maxBytes / 1_000_000) MB")
        }
        var lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
        if lines.first?.hasPrefix("\u{FEFF}") == true { lines[0].removeFirst() }
        guard lines.first == "#EXTM3U" else { return .refused("the HLS playlist does not begin with #EXTM3U") }
        if lines.contains(where: { $0.hasPrefix("#EXT-X-STREAM-INF:") }) { return variant(lines, from: url) }
        return media(lines, from: url)
    }

    /// The segments after `sequence` (the last one fetched), oldest first.
    public func segments(after sequence: Int) -> ArraySlice<Segment> {
        segments.drop { $0.sequence <= sequence }
    }

    /// The newest segment's sequence number, nil for an empty playlist.
    public var newestSequence: Int? { segments.last?.sequence }

    /// Where a live player starts: three segments from the end (as FFmpeg's
    /// `live_start_index`), so that its first delivery holds enough audio to begin.
    public var startSequence: Int? { segments.dropLast(2).last?.sequence ?? segments.first?.sequence }

    private static func media(_ lines: [String], from url: String) -> Reading {
        var target: TimeAmount?
        var sequence = 0
        var segments: [Segment] = []
        var pending: TimeAmount?
        for line in lines {
            let (tag, value) = split(line)
            switch tag {
            case "#EXT-X-ENDLIST": return .leftToFFmpeg("a finished (not live) playlist")
            case "#EXT-X-MAP": return .leftToFFmpeg("fMP4 segments (EXT-X-MAP)")
            case "#EXT-X-BYTERANGE": return .leftToFFmpeg("segments as byte ranges")
            case "#EXT-X-KEY" where !value.uppercased().contains("METHOD=NONE"):
                return .leftToFFmpeg("encrypted segments")
            case "#EXT-X-TARGETDURATION":
                guard let seconds = Int(value), (1...maxTargetSeconds).contains(seconds) else {
                    return .refused("EXT-X-TARGETDURATION '\(value.prefix(20))' is not 1 to \(maxTargetSeconds) s")
                }
                target = .seconds(Int64(seconds))
            case "#EXT-X-MEDIA-SEQUENCE":
                guard let number = Int(value), (0...maxSequence).contains(number), segments.isEmpty else {
                    return .refused(
                        "EXT-X-MEDIA-SEQUENCE '\(value.prefix(20))' is not a sequence number before the segments")
                }
                sequence = number
            case "#EXTINF":
                let seconds = value.prefix { $0 != "," }
                guard let duration = Double(seconds), duration.isFinite, duration > 0,
                    duration <= Double(maxTargetSeconds) + 1
                else { return .refused("EXTINF '\(seconds.prefix(20))' is not a segment's duration") }
                pending = TimeAmount(nanoseconds: Int64((duration * 1e9).rounded()))
            default:
                guard !line.hasPrefix("#") else { continue }
                guard let duration = pending else { return .refused("a segment without EXTINF: '\(line.prefix(80))'") }
                let resolved = StationPlaylist.resolve(line, against: url)
                if let problem = ClipURL.problem(resolved)
                    ?? (resolved.lowercased().hasPrefix("demo:") ? "not http" : nil)
                {
                    return .refused(problem.replacing("clip URL", with: "segment"))
                }
                segments.append(Segment(sequence: sequence + segments.count, url: resolved, duration: duration))
                pending = nil
            }
        }
        guard let target else { return .refused("no EXT-X-TARGETDURATION: not a media playlist") }
        guard !segments.isEmpty else { return .refused("the HLS playlist lists no segment") }
        return .media(HLSPlaylist(targetDuration: target, segments: Array(segments.suffix(maxSegments))))
    }

    /// The master playlist's variant to play: audio-only ones (`CODECS` of `mp4a`, `mp3`,
    /// `opus`, `ac-3`… only) first, then those that do not say, each the highest `BANDWIDTH`
    /// first; then those with video, the lowest first (their sound is alike, their pictures
    /// are fetched for nothing). Those with alternate audio (`AUDIO=` a group) are left to
    /// FFmpeg, which plays renditions.
    private static func variant(_ lines: [String], from url: String) -> Reading {
        var best: (rank: Int, url: String)?
        var attributes: Substring?
        for line in lines {
            if line.hasPrefix("#EXT-X-STREAM-INF:") {
                attributes = line.dropFirst("#EXT-X-STREAM-INF:".count)
                continue
            }
            guard !line.hasPrefix("#"), let current = attributes else { continue }
            attributes = nil
            if current.contains("AUDIO=") { return .leftToFFmpeg("a variant with alternate audio renditions") }
            let bandwidth = attribute("BANDWIDTH", in: current).flatMap { Int($0) } ?? 0
            let codecs = attribute("CODECS", in: current)?.lowercased().split(separator: ",") ?? []
            let videoCodecs = ["avc", "hvc", "hev", "vp0", "av01", "mp4v"]
            let video = codecs.contains { codec in videoCodecs.contains { codec.trimmingSpaces().hasPrefix($0) } }
            // Bandwidths are capped far above any stream's, so that the ranks never overlap.
            let capped = min(max(bandwidth, 0), 1 << 40)
            let rank = video ? -capped : (codecs.isEmpty ? 1 << 41 : 1 << 42) + capped
            let resolved = StationPlaylist.resolve(line, against: url)
            guard ClipURL.problem(resolved) == nil, rank > best?.rank ?? .min else { continue }
            best = (rank, resolved)
        }
        return best.map { .variant($0.url) } ?? .refused("the master playlist names no http or https variant")
    }

    /// A tag line's name and value (`#EXTINF:6.0,` → `#EXTINF`, `6.0,`).
    private static func split(_ line: String) -> (String, String) {
        guard line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { return (line, "") }
        return (String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces())
    }

    /// An attribute's value in an attribute list (`BANDWIDTH=64000,CODECS="mp4a.40.2"`),
    /// without its quotes.
    private static func attribute(_ name: String, in list: Substring) -> String? {
        var rest = list
        while let range = rest.firstRange(of: name + "=") {
            let before = rest[..<range.lowerBound].last
            rest = rest[range.upperBound...]
            guard before == nil || before == "," else { continue }
            if rest.first == "\"" { return String(rest.dropFirst().prefix { $0 != "\"" }) }
            return String(rest.prefix { $0 != "," })
        }
        return nil
    }
}
