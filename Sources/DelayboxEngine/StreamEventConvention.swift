/// How a broadcaster signals stream events inside ordinary stream titles, so that any
/// player still shows a sensible title (docs/stream-events.md):
///
///     Half-time [delaybox:muted]
///     Second half [delaybox:unmuted]
///     Ad break [delaybox:ad 30 https://club.example/ads/beer.mp3]
///     Ad break [delaybox:ad@1795500300.25 30 https://club.example/ads/beer.mp3]
///     Half-time: 2-1 [delaybox:muted] [delaybox:ad@1795500300.25 30 https://club.example/ads/beer.mp3]
///     Kick-off: City v United
///
/// A title ends in tags (a state each: muted during half-time and an ad break in it); the
/// text before them is the "now playing" text.
public enum StreamEventConvention {
    static let tagPrefix = "[delaybox:"

    /// The `StreamTitle` value of an ICY metadata block. Icecast does not escape quotes
    /// inside titles, so the value runs up to the `';` that ends the block (or that
    /// precedes the next key), not to the first quote.
    public static func streamTitle(fromIcyMetadata metadata: String) -> String? {
        let text = metadata.trimmingTrailingNULs()
        guard let start = text.firstRange(of: "StreamTitle='") else { return nil }
        let rest = text[start.upperBound...]
        if let next = rest.firstRange(of: "';StreamUrl='") { return String(rest[..<next.lowerBound]) }
        if let end = rest.ranges(of: "';").last { return String(rest[..<end.lowerBound]) }
        return String(rest.hasSuffix("'") ? rest.dropLast() : rest)
    }

    /// The events a stream title carries: the text before its tags as the new title, when
    /// there is one, then each tag's event in order; or just a title. Tags are read from
    /// the end: one that is not understood, and everything before it, is text.
    public static func events(fromTitle title: String) -> [StreamEvent] {
        var text = Substring(title)
        var tagged: [StreamEvent] = []
        while text.hasSuffix("]"), let tagStart = text.ranges(of: tagPrefix).last,
              let event = event(fromTag: text[tagStart.upperBound..<text.index(before: text.endIndex)]) {
            tagged.insert(event, at: 0)
            text = text[..<tagStart.lowerBound]
            while text.last == " " { text = text.dropLast() }
        }
        guard !tagged.isEmpty else { return title.isEmpty ? [] : [.title(title)] }
        let rest = text.trimmingSpaces()
        return (rest.isEmpty ? [] : [.title(rest)]) + tagged
    }

    /// The event of one tag's words (between `[delaybox:` and `]`), nil if not understood.
    private static func event(fromTag tag: Substring) -> StreamEvent? {
        let words = tag.split(separator: " ")
        switch words.first {
        case "muted": return .streamerMuted
        case "unmuted": return .streamerUnmuted
        case let keyword? where keyword == "ad" || keyword.hasPrefix("ad@"):
            // `ad@START`: when the break began (Unix time, s); a START that is not one
            // makes the tag malformed, so it is shown as text rather than half understood.
            let startedAt = keyword == "ad" ? nil : Double(keyword.dropFirst(3))
            let startIsValid = keyword == "ad" || (startedAt.map { $0.isFinite && $0 > 0 } ?? false)
            guard words.count == 3, startIsValid, let seconds = Double(words[1]), seconds > 0, seconds.isFinite else { return nil }
            return .adBreak(AdBreak(audioURL: String(words[2]), durationMs: Int64((seconds * 1000).rounded()), startedAt: startedAt))
        default: return nil
        }
    }

    /// The stream title a broadcaster sends for `event` with `text` before the tag.
    public static func title(for event: StreamEvent, text: String) -> String {
        let prefix = text.isEmpty ? "" : text + " "
        switch event {
        case .streamerMuted: return prefix + "[delaybox:muted]"
        case .streamerUnmuted: return prefix + "[delaybox:unmuted]"
        case .adBreak(let ad):
            let seconds = Double(ad.durationMs) / 1000
            let shown = seconds == seconds.rounded() ? String(Int64(seconds)) : String(seconds)
            let start = ad.startedAt.map { "@" + String($0) } ?? ""
            return prefix + "[delaybox:ad\(start) \(shown) \(ad.audioURL)]"
        case .title(let title): return title
        }
    }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while slice.first == " " { slice = slice.dropFirst() }
        while slice.last == " " { slice = slice.dropLast() }
        return String(slice)
    }

    func trimmingTrailingNULs() -> String {
        var slice = Substring(self)
        while slice.last == "\0" { slice = slice.dropLast() }
        return String(slice)
    }
}
