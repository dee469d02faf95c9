/// The URLs of clips a stream names in its titles (an ad's audio), checked before the box
/// fetches anything: a title comes from whoever can reach the stream, so it may name only
/// http or https files (never a local file, a pipe or another protocol FFmpeg knows), on
/// the channel's own host or one its config lists in `ads_from` — not any host of the
/// listener's LAN — or a built-in `demo://` clip. docs/security.md.
public enum ClipURL {
    /// Longer URLs are refused (bytes): a clip's URL is a path on a web server, and
    /// browsers and servers stop around 2 to 8 KB.
    static let maxLength = 2_000

    /// Why `url` may not be fetched for a title, nil if it may (before the host check,
    /// `problem(_:forChannel:)`): http, https or demo only, printable ASCII without
    /// backslashes (an FFmpeg and a browser would not agree on where such a URL points),
    /// and a host.
    public static func problem(_ url: String) -> String? {
        let shown = url.count > 80 ? String(url.prefix(80)) + "…" : url
        guard url.utf8.count <= maxLength else { return "clip URL '\(shown)' is longer than \(maxLength) bytes" }
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: "\\") }) else {
            return "clip URL '\(shown)' has characters a URL may not have (percent-encode them)"
        }
        let scheme = url.firstRange(of: "://").map { url[..<$0.lowerBound].lowercased() }
        guard let scheme, ["http", "https", "demo"].contains(scheme) else {
            return "clip URL '\(shown)' is not http or https: a stream may not name local files or other protocols"
        }
        if scheme != "demo", host(of: url) == nil { return "clip URL '\(shown)' names no host" }
        return nil
    }

    /// Why the channel `streamURL` (with `adsFrom`, the hosts its config allows besides
    /// its own) may not fetch `url` for a title, nil if it may.
    public static func problem(_ url: String, streamURL: String, adsFrom: [String]) -> String? {
        if let problem = problem(url) { return problem }
        guard let clipHost = host(of: url) else { return nil }  // demo://, built in
        let allowed = Set(([host(of: streamURL)].compactMap { $0 }) + adsFrom.map { $0.lowercased() })
        guard allowed.contains(clipHost) else {
            return "clip host '\(clipHost)' is not the stream's; list it in the channel's ads_from to allow it"
        }
        return nil
    }

    /// The host of an http(s) URL, lowercased (an IPv6 address without its brackets); nil
    /// when there is none. The authority ends at the first `/`, `?` or `#`; user
    /// information ends at its last `@`; a port follows the host's last `:`.
    public static func host(of url: String) -> String? {
        guard let separator = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return nil }
        var authority = url[separator.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.prefix { $0 != ":" }
        }
        return host.isEmpty ? nil : host.lowercased()
    }
}
