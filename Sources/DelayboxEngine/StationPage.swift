/// A station's "listen live" web page as a station link (issue 60): fans copy the address
/// of the page, not of its stream. The page's HTML comes from strangers (the station's web
/// server, whoever is between), fetched bounded; what a player on it would play is looked
/// for in this order: the sources of its `<audio>`, `<source>` and `<video>` elements; links
/// to station playlists (`.pls`, `.m3u`, `.m3u8`, `.xspf`, `.asx`); then stream addresses
/// anywhere in its text — a player's configuration, embedded JSON (`https:\/\/…` too) —
/// whose path ends in an audio or playlist extension or names a stream (`/stream`, `/live`,
/// `/listen`, `;stream.mp3`). At most `maxCandidates`, each checked as a playlist entry is
/// (http or https, printable ASCII, never a local file or another protocol).
public enum StationPage {
    /// The most of a page read (bytes): a station's page with its scripts inline.
    public static let maxBytes = 1_048_576
    /// Candidates kept from one page, tried in order.
    public static let maxCandidates = 8
    static let audioExtensions: Set<String> = ["mp3", "aac", "aacp", "ogg", "oga", "opus", "m4a", "flac"]
    /// What a path segment of a stream without an extension is (an Icecast mount `/live`,
    /// `/stream2`, SHOUTcast's `/;`), digits or `_` after the word allowed.
    static let streamWords = ["stream", "live", "listen", "icecast"]

    /// Whether `prefix` (a response's first bytes) is a web page: HTML, not a playlist or
    /// a stream.
    public static func isPage(_ prefix: [UInt8]) -> Bool {
        let start = String(decoding: prefix.prefix(1_024), as: UTF8.self).lowercased()
        return start.contains("<!doctype html") || start.contains("<html")
    }

    /// The streams and station links `html`, fetched from `url`, offers, best first.
    public static func candidates(_ html: String, from url: String) -> [String] {
        let text = Substring(
            html.utf8.count > maxBytes ? String(decoding: html.utf8.prefix(maxBytes), as: UTF8.self) : html)
        var elements: [String] = [], playlists: [String] = [], others: [String] = []
        for tag in ["<audio", "<source", "<video"] {
            elements += attributeValues(in: text, tag: tag, attributes: ["src", "data-src"])
        }
        for link in (attributeValues(in: text, tag: "<a", attributes: ["href"]) + addresses(in: text)).map(unescaped) {
            let kind = kind(of: link)
            if kind == .playlist { playlists.append(link) } else if kind == .stream { others.append(link) }
        }
        var found: [String] = []
        for candidate in elements + playlists + others {
            let resolved = StationPlaylist.resolve(unescaped(candidate), against: url)
            guard ClipURL.problem(resolved) == nil, !resolved.lowercased().hasPrefix("demo:"), resolved != url,
                !found.contains(resolved)
            else { continue }
            found.append(resolved)
            if found.count == maxCandidates { break }
        }
        return found
    }

    enum Kind { case stream, playlist, other }

    /// What a link's path says it is.
    static func kind(of link: String) -> Kind {
        let path = Substring(link.lowercased()).prefix { $0 != "?" && $0 != "#" }
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        if let dot = last.lastIndex(of: ".") {
            let ext = String(last[last.index(after: dot)...])
            if StationPlaylist.extensions.contains(ext) { return .playlist }
            if audioExtensions.contains(ext) { return .stream }
            if !last.contains(";") { return .other }  // a page, a script, an image
        }
        let afterHost = path.firstRange(of: "://").map { path[$0.upperBound...].drop { $0 != "/" } } ?? path
        let isStream = afterHost.split(separator: "/").contains { segment in
            segment.hasPrefix(";")
                || streamWords.contains { word in
                    segment.hasPrefix(word) && segment.dropFirst(word.count).allSatisfy { $0.isNumber || $0 == "_" }
                }
        }
        return isStream ? .stream : .other
    }

    /// The quoted values of `attributes` in every `tag` element (`<source src="…">`). A tag
    /// never closed ends the search (no quadratic rescans of a hostile page).
    private static func attributeValues(in text: Substring, tag: String, attributes: [String]) -> [String] {
        var values: [String] = []
        var rest = text
        while let open = rest.firstRange(ofASCIIIgnoringCase: tag) {
            rest = rest[open.upperBound...]
            // `<a` must be the whole name: not `<audio`, `<abbr`.
            guard let next = rest.first, next == " " || next == "\t" || next == "\n" || next == "\r" else { continue }
            guard let end = rest.utf8.firstIndex(of: UInt8(ascii: ">")) else { break }
            let element = rest[..<end]
            rest = rest[end...]
            for attribute in attributes {
                guard let key = element.firstRange(ofASCIIIgnoringCase: " \(attribute)="),
                    let quote = element[key.upperBound...].first, quote == "\"" || quote == "'"
                else { continue }
                values.append(String(element[element.index(after: key.upperBound)...].prefix { $0 != quote }))
            }
        }
        return values
    }

    /// Every `http://` and `https://` address in the text (a script's, JSON's), to the first
    /// character an address cannot hold.
    private static func addresses(in text: Substring) -> [String] {
        var values: [String] = []
        var rest = text
        while let start = rest.firstRange(ofASCIIIgnoringCase: "http") {
            let candidate = rest[start.lowerBound...]
            rest = rest[start.upperBound...]
            let lowered = candidate.prefix(10).lowercased()
            guard
                lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("http:\\/\\/")
                    || lowered.hasPrefix("https:\\/\\/")
            else { continue }
            let address = candidate.prefix { character in
                character.isASCII && !character.isWhitespace && !"\"'<>(),`{}|^[]".contains(character)
            }
            values.append(String(address.prefix(ClipURL.maxLength + 64)))
            rest = candidate[address.endIndex...]
            if values.count >= 256 { break }
        }
        return values
    }

    /// `&amp;` and a JSON string's `\/` as a URL has them.
    private static func unescaped(_ text: String) -> String {
        text.replacing("\\/", with: "/").replacing("&amp;", with: "&").trimmingSpaces()
    }
}
