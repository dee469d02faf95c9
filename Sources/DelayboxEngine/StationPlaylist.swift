/// The links a station's website gives for its stream — `.pls`, `.m3u` (and an `.m3u8`
/// that is not HLS), `.xspf`, `.asx` — read into the streams they name, in order: the
/// first is played, the others are fallbacks when it fails. The text comes from strangers
/// (a station's web server and whoever is between): sizes and counts are bounded, every
/// entry must be an http or https URL of printable ASCII (never a local file or another
/// protocol), and an entry relative to the playlist is resolved against its URL.
public enum StationPlaylist {
    /// What a playlist's text says.
    public enum Reading: Sendable, Equatable {
        /// The streams it names, in order (at most `maxEntries`).
        case streams([String])
        /// It is an HLS playlist: FFmpeg plays the link itself.
        case hls
        /// Nothing playable in it, and why.
        case refused(String)
    }

    /// The longest playlist read (bytes): station playlists are a few hundred bytes.
    public static let maxBytes = 65_536
    /// Streams kept from one playlist: a station lists a few mirrors and bitrates.
    public static let maxEntries = 16
    /// Extensions a station link has (the path's, before a query).
    static let extensions: Set<String> = ["pls", "m3u", "m3u8", "xspf", "asx"]

    /// Whether `url` is a station link to read before playing: an http(s) URL whose path
    /// ends in one of the playlist extensions.
    public static func isStationLink(_ url: String) -> Bool {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return false }
        let path = lowered.prefix { $0 != "?" && $0 != "#" }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return extensions.contains(String(path[path.index(after: dot)...]))
    }

    /// Reads `text` fetched from `url` (its format from its content, not its name: servers
    /// mislabel them).
    public static func read(_ text: String, from url: String) -> Reading {
        guard text.utf8.count <= maxBytes else {
            // An HLS playlist of a long live window is larger: HLSPlaylist has its own limit.
            return text.utf8.starts(with: "#EXTM3U".utf8) && text.contains("#EXT-X-")
                ? .hls : .refused("the playlist is larger than \(maxBytes / 1_024) KB")
        }
        var body = Substring(text)
        if body.hasPrefix("\u{FEFF}") { body = body.dropFirst() }
        let start = body.drop { $0.isWhitespace }.prefix(512).lowercased()
        let found: [String]
        if start.hasPrefix("[playlist]") {
            found = pls(body)
        } else if start.contains("<asx") {
            found = xmlValues(body, open: "<ref", attribute: "href")
        } else if start.contains("<playlist") || start.hasPrefix("<?xml") {
            found = xmlElements(body, named: "location")
        } else if body.contains("#EXT-X-") {
            return .hls
        } else {
            found = body.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.filter {
                !$0.isEmpty && !$0.hasPrefix("#")
            }
        }
        var streams: [String] = []
        var problems: [String] = []
        for entry in found {
            let resolved = resolve(entry, against: url)
            if let problem = ClipURL.problem(resolved)
                ?? (resolved.lowercased().hasPrefix("demo:") ? "not a stream" : nil)
            {
                problems.append(problem.replacing("clip URL", with: "entry"))
            } else if !streams.contains(resolved) {
                streams.append(resolved)
            }
            if streams.count == maxEntries { break }
        }
        guard !streams.isEmpty else {
            return .refused(problems.first.map { "no stream in the playlist: \($0)" } ?? "no stream in the playlist")
        }
        return .streams(streams)
    }

    /// PLS: `FileN=URL`, in the order of N (then of the lines).
    private static func pls(_ body: Substring) -> [String] {
        var entries: [(index: Int, url: String)] = []
        for line in body.split(whereSeparator: \.isNewline) {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingSpaces().lowercased()
            guard key.hasPrefix("file"), let index = Int(key.dropFirst(4)), index >= 0 else { continue }
            entries.append((index, line[line.index(after: equals)...].trimmingSpaces()))
        }
        return entries.enumerated().sorted { ($0.element.index, $0.offset) < ($1.element.index, $1.offset) }.map(
            \.element.url)
    }

    /// XSPF: the text of every `<location>` element.
    private static func xmlElements(_ body: Substring, named name: String) -> [String] {
        var values: [String] = []
        var rest = body
        while let open = rest.firstRange(ofASCIIIgnoringCase: "<\(name)>") {
            rest = rest[open.upperBound...]
            guard let close = rest.firstRange(ofASCIIIgnoringCase: "</\(name)>") else { break }
            values.append(unescaped(rest[..<close.lowerBound].trimmingSpaces()))
            rest = rest[close.upperBound...]
        }
        return values
    }

    /// ASX: the `href` of every `<ref …>` (quoted with `"` or `'`). A tag that is never
    /// closed ends the list: looking for its `>` again from every later `<ref` would make
    /// a text of many unclosed tags quadratic (the playlist fuzzer's inputs).
    private static func xmlValues(_ body: Substring, open: String, attribute: String) -> [String] {
        var values: [String] = []
        var rest = body
        while let tag = rest.firstRange(ofASCIIIgnoringCase: open) {
            rest = rest[tag.upperBound...]
            guard let end = rest.utf8.firstIndex(of: UInt8(ascii: ">")) else { break }
            let element = rest[..<end]
            rest = rest[end...]
            guard let key = element.firstRange(ofASCIIIgnoringCase: "\(attribute)="),
                let quote = element[key.upperBound...].first, quote == "\"" || quote == "'"
            else { continue }
            let value = element[element.index(after: key.upperBound)...].prefix { $0 != quote }
            values.append(unescaped(value.trimmingSpaces()))
        }
        return values
    }

    /// XML's five named entities.
    private static func unescaped(_ text: String) -> String {
        text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
            .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
    }

    /// `entry` as an absolute URL: as it is if it has a scheme; otherwise relative to the
    /// playlist's URL (`/path` to its host, `name` to its directory).
    static func resolve(_ entry: String, against base: String) -> String {
        let hasScheme =
            entry.firstIndex(of: ":").map {
                entry[..<$0].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            } ?? false
        guard !hasScheme, let separator = base.firstRange(of: "://") else { return entry }
        let afterScheme = base[separator.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let origin = base[..<authorityEnd]
        if entry.hasPrefix("/") { return origin + entry }
        let path = base[authorityEnd...].prefix { $0 != "?" && $0 != "#" }
        let directory = path.lastIndex(of: "/").map { path[...$0] } ?? "/"
        return origin + directory + entry
    }
}

extension Substring {
    /// The first range of `needle` (ASCII, lower case) in this text, ignoring the case of
    /// ASCII letters: tag and attribute names in XML playlists come in any case.
    func firstRange(ofASCIIIgnoringCase needle: String) -> Range<Index>? {
        let pattern = Array(needle.utf8)
        guard let first = pattern.first else { return nil }
        let bytes = utf8
        var index = bytes.startIndex
        while index != bytes.endIndex {
            if Self.lowered(bytes[index]) == first {
                var probe = index, matched = 0
                while matched < pattern.count, probe != bytes.endIndex, Self.lowered(bytes[probe]) == pattern[matched] {
                    bytes.formIndex(after: &probe)
                    matched += 1
                }
                if matched == pattern.count { return index..<probe }
            }
            bytes.formIndex(after: &index)
        }
        return nil
    }

    private static func lowered(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
}
