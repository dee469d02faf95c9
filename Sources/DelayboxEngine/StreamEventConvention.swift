import DelayboxChecked

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
    /// the end: one that is not ours, and everything before it, is text. One of ours whose
    /// values are out of range is refused (`TitleReading.refusals`) and the rest counts.
    public static func read(title: String) -> TitleReading {
        var text = Substring(title)
        var tagged: [StreamEvent] = []
        var refusals: [TitleReading.Refusal] = []
        while text.hasSuffix("]"), let tagStart = lastTagStart(in: text),
            let result = event(fromTag: text[tagStart.upperBound..<text.index(before: text.endIndex)])
        {
            switch result {
            case .success(let event): tagged.append(event)
            case .failure(let refusal):
                refusals.append(
                    TitleReading.Refusal(tag: String(text[tagStart.lowerBound...].prefix(200)), reason: refusal.reason))
            }
            text = text[..<tagStart.lowerBound]
            while text.last == " " { text = text.dropLast() }
        }
        guard !tagged.isEmpty || !refusals.isEmpty else {
            return TitleReading(events: title.isEmpty ? [] : [.title(title)], refusals: [])
        }
        let rest = text.trimmingSpaces()
        return TitleReading(
            events: (rest.isEmpty ? [] : [.title(rest)]) + tagged.reversed(), refusals: refusals.reversed())
    }

    /// The last `[delaybox:` in `text`, looked for from its end: reading a title's tags
    /// from the end costs each tag only its own length (a title is a stranger's, and a
    /// search from the start for each tag was quadratic in their number).
    private static func lastTagStart(in text: Substring) -> Range<Substring.Index>? {
        var index = text.endIndex
        while index > text.startIndex {
            index = text.index(before: index)
            if text[index...].hasPrefix(tagPrefix) { return index..<text.index(index, offsetBy: tagPrefix.count) }
        }
        return nil
    }

    /// The events of `title` without the refusals (`read(title:)`).
    public static func events(fromTitle title: String) -> [StreamEvent] { read(title: title).events }

    struct TagRefusal: Error { var reason: String }

    /// The event of one tag's words (between `[delaybox:` and `]`): nil if the tag is not
    /// ours (so it is text), a refusal if it is ours but malformed or out of range.
    private static func event(fromTag tag: Substring) -> Result<StreamEvent, TagRefusal>? {
        let words = tag.split(separator: " ")
        switch words.first {
        case "muted": return .success(.streamerMuted)
        case "unmuted": return .success(.streamerUnmuted)
        case let keyword? where keyword == "ad" || keyword.hasPrefix("ad@"):
            return adBreak(keyword: keyword, words: words.dropFirst()).map { .adBreak($0) }
        default: return nil
        }
    }

    /// `ad SECONDS URL` or `ad@START SECONDS URL`, every value checked into the range the
    /// product means before any arithmetic on it (docs/stream-events.md, "Values").
    private static func adBreak(keyword: Substring, words: ArraySlice<Substring>) -> Result<AdBreak, TagRefusal> {
        guard words.count == 2 else {
            return .failure(TagRefusal(reason: "expected [delaybox:ad SECONDS URL] or [delaybox:ad@START SECONDS URL]"))
        }
        let length = words[words.startIndex], url = String(words[words.startIndex + 1])
        guard let seconds = Double(length),
            let durationMs = Checked.scaled(seconds, by: 1_000, in: AdBreak.durationRangeMs)
        else {
            return .failure(
                TagRefusal(reason: "ad break length '\(length.prefix(32))' s is outside \(AdBreak.durationRangeText)"))
        }
        var startedAt: Double?
        if keyword != "ad" {
            let start = keyword.dropFirst(3)
            guard let value = Double(start), AdBreak.startRange.contains(value) else {
                return .failure(
                    TagRefusal(
                        reason:
                            "ad break start '\(start.prefix(32))' is not a Unix time in seconds between 2000 and 2100"))
            }
            startedAt = value
        }
        if let problem = ClipURL.problem(url) { return .failure(TagRefusal(reason: problem)) }
        return .success(AdBreak(audioURL: url, durationMs: durationMs, startedAt: startedAt))
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
