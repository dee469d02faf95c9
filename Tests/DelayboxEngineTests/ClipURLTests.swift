import DelayboxEngine
import Testing

/// Which clips a stream's title may name (issue 39): http or https on the channel's host
/// or one its config lists in `ads_from`, or a built-in demo clip; never a local file,
/// another protocol or any other host of the listener's LAN.
@Suite(.timeLimit(.minutes(10))) struct ClipURLTests {
    let channel = Channel(
        name: "City", streamURL: "https://Stream.Example:8443/city.mp3", adsFrom: ["ads.club.example", "10.0.0.9"])

    @Test func theHostIsWhereTheAuthoritySaysItIs() {
        #expect(ClipURL.host(of: "http://a.example/x.mp3") == "a.example")
        #expect(ClipURL.host(of: "HTTPS://A.Example:8000?x") == "a.example")
        #expect(ClipURL.host(of: "http://user:pw@a.example@b.example:80/x") == "b.example")
        #expect(ClipURL.host(of: "http://[fe80::1]:8000/x") == "fe80::1")
        #expect(ClipURL.host(of: "http://a.example#@b.example/") == "a.example")
        #expect(ClipURL.host(of: "http:///x") == nil)
        #expect(ClipURL.host(of: "file:///etc/shadow") == nil)
        #expect(ClipURL.host(of: "http://[fe80::1") == nil)
    }

    @Test func aTitleMayNameClipsOnTheStreamsHostAndTheListedOnes() {
        for allowed in [
            "https://stream.example/ads/a.mp3", "http://STREAM.example:80/a.mp3", "https://ads.club.example/beer.mp3",
            "http://10.0.0.9/a.mp3", "demo://ad",
        ] {
            #expect(channel.adURLProblem(allowed) == nil, "\(allowed)")
        }
        for (refused, reason) in [
            ("https://evil.example/a.mp3", "clip host 'evil.example' is not the stream's"),
            ("http://stream.example@192.168.1.1/a.mp3", "clip host '192.168.1.1'"),
            ("http://127.0.0.1:631/", "clip host '127.0.0.1'"),
            ("file:///etc/shadow", "is not http or https"),
            ("ftp://stream.example/a.mp3", "is not http or https"),
            ("https://stream.example/\u{1}a.mp3", "characters a URL may not have"),
            ("https://stream.example/" + String(repeating: "a", count: 2_000), "longer than 2000 bytes"),
        ] {
            let problem = channel.adURLProblem(refused)
            #expect(problem?.contains(reason) == true, "\(refused): \(problem ?? "allowed")")
        }
    }

    /// A channel that is a local file has no host of its own: only its `ads_from`.
    @Test func aLocalFileChannelTakesOnlyItsListedHosts() {
        let file = Channel(name: "File", streamURL: "/srv/match.mp3", adsFrom: ["ads.club.example"])
        #expect(file.adURLProblem("https://ads.club.example/a.mp3") == nil)
        #expect(file.adURLProblem("https://other.example/a.mp3") != nil)
    }

    @Test func anAdsFromEntryMustBeAHost() {
        let odd = Channel(
            name: "Odd", streamURL: "https://a.example/x", adsFrom: ["https://b.example", "b.example/x", "ok.example"])
        #expect(odd.problems().count == 2, "\(odd.problems())")
    }
}
