import Testing

@testable import DelayboxEngine

/// Issue 60: a station's "listen live" page as a station link — what a player on it would
/// play, found in its HTML (a stranger's text), best first.
@Suite(.timeLimit(.minutes(10))) struct StationPageTests {
    static let url = "https://cityfc.example/club/listen-live.html"

    @Test func aPagesPlayerSourcesComeFirstThenItsPlaylistsThenStreamsInItsScripts() {
        let html = """
            <!DOCTYPE html><html><head><title>Listen live</title>
            <script src="/js/player.js"></script><link rel="stylesheet" href="/live.css">
            <script>var config = {"stream": "https:\\/\\/edge.cityfc.example\\/live", "poster": "https://cityfc.example/live.png"};</script>
            </head><body>
            <a href="/tickets.html">Tickets</a> <a href="https://cityfc.example/live-blog">blog</a>
            <a href='radio.pls'>Listen in your player</a>
            <AUDIO controls>
              <SOURCE src="https://icecast.cityfc.example:8000/commentary.mp3" type="audio/mpeg">
              <source data-src="/hls/commentary.m3u8">
            </AUDIO>
            <p>Also on http://1.2.3.4:8000/; and https://icecast.cityfc.example:8000/commentary.mp3 (again)</p>
            </body></html>
            """
        #expect(StationPage.isPage(Array(html.utf8)))
        #expect(
            StationPage.candidates(html, from: Self.url) == [
                "https://icecast.cityfc.example:8000/commentary.mp3",
                "https://cityfc.example/hls/commentary.m3u8",
                "https://cityfc.example/club/radio.pls",
                "https://edge.cityfc.example/live",
                "http://1.2.3.4:8000/;",
            ])
    }

    @Test func whatIsNotAStreamOrNotTheWebsIsLeftOut() {
        let html = """
            <html><audio src="file:///etc/passwd"></audio><source src="javascript:alert(1)">
            <source src="demo://commentary"><a href="ftp://x.example/live.mp3">x</a>
            <script>location = "https://cityfc.example/club/listen-live.html"</script>
            <a href="/shop/index.php?item=live">shop</a><img src="/stream.jpg"></html>
            """
        #expect(StationPage.candidates(html, from: Self.url).isEmpty)
        #expect(!StationPage.isPage(Array("[playlist]\nFile1=http://x/live.mp3\n".utf8)))
        #expect(!StationPage.isPage([0xFF, 0xFB, 0x90, 0x64]))
    }

    /// A hostile page: many unclosed tags and addresses, a huge one — bounded, at most 8.
    @Test func aHostilePageIsReadInBoundedTimeAndGivesAtMostEight() {
        let many = (0..<500).map { "<source src=\"http://x\($0).example/live.mp3\">" }.joined()
        #expect(StationPage.candidates("<html>" + many, from: Self.url).count == StationPage.maxCandidates)
        let unclosed = String(repeating: "<audio src=\"http://a.example/x.mp3\" ", count: 20_000)
        #expect(
            StationPage.candidates("<html>" + unclosed, from: Self.url) == ["http://a.example/x.mp3"],
            "the element never closes; the address is still in its text")
        let long = "<html><source src=\"http://a.example/" + String(repeating: "a", count: 5_000) + ".mp3\">"
        #expect(StationPage.candidates(long, from: Self.url).isEmpty, "beyond a URL's 2000 bytes")
        let addresses = String(repeating: "https://h.example/live ", count: 50_000)
        #expect(StationPage.candidates(addresses, from: Self.url) == ["https://h.example/live"])
    }
}
