/// How a broadcaster signals stream events inside ordinary stream titles, so that any
/// player still shows a sensible title (docs/stream-events.md):
///
///     Half-time [delaybox:muted]
///     Second half [delaybox:unmuted]
///     Ad break [delaybox:ad 30 https://club.example/ads/beer.mp3]
///     Kick-off: City v United
///
/// A title ends in at most one tag; the text before it is the "now playing" text.
public enum StreamEventConvention {
    static let tagPrefix = "[delaybox:"

    /// The `StreamTitle` value of an ICY metadata block. Icecast does not escape quotes
    /// inside titles, so the value runs up to the `';` that ends the block (or that
    /// precedes the next key), not to the first quote.
    public static func streamTitle(fromIcyMetadata metadata: String) -> String? {
        let text = metadata.trimmingTrailingNULs()
        guard let start = text.range(of: "StreamTitle='") else { return nil }
        let rest = text[start.upperBound...]
        if let next = rest.range(of: "';StreamUrl='") { return String(rest[..<next.lowerBound]) }
        if let end = rest.range(of: "';", options: .backwards) { return String(rest[..<end.lowerBound]) }
        return String(rest.hasSuffix("'") ? rest.dropLast() : rest)
    }

    /// The events a stream title carries: a tagged state change (with the text before the
    /// tag as the new title, when there is one), or just a title.
    public static func events(fromTitle title: String) -> [StreamEvent] {
        guard let tagStart = title.range(of: tagPrefix, options: .backwards), title.hasSuffix("]") else {
            return title.isEmpty ? [] : [.title(title)]
        }
        let text = title[..<tagStart.lowerBound].trimmingSpaces()
        let words = title[tagStart.upperBound..<title.index(before: title.endIndex)].split(separator: " ")
        let event: StreamEvent?
        switch words.first {
        case "muted": event = .streamerMuted
        case "unmuted": event = .streamerUnmuted
        case "ad":
            if words.count == 3, let seconds = Double(words[1]), seconds > 0 {
                event = .adBreak(AdBreak(audioURL: String(words[2]), durationMs: Int64((seconds * 1000).rounded())))
            } else {
                event = nil
            }
        default: event = nil
        }
        guard let event else { return [.title(title)] }  // an unknown tag is just text
        return text.isEmpty ? [event] : [.title(text), event]
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
            return prefix + "[delaybox:ad \(shown) \(ad.audioURL)]"
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
