/// The page's three files (Sources/DelayboxWeb/page, embedded by tools/web-page.py), served
/// from the program itself: no CDN, nothing fetched from the internet (a box may have none). The page shows every value through
/// `textContent`, never as markup: titles and channel names come from strangers. The
/// policy forbids any script but the box's own file, and framing.
enum WebAssets {
    static let page = asset(
        WebPageFiles.html, type: "text/html; charset=utf-8",
        extra: [
            [
                "Content-Security-Policy",
                "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
                    + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
            ]
        ])
    static let style = asset(WebPageFiles.css, type: "text/css; charset=utf-8")
    static let script = asset(WebPageFiles.js, type: "text/javascript; charset=utf-8")

    private static func asset(_ text: String, type: String, extra: [[String]] = []) -> WebResponse {
        WebResponse(status: 200, headers: [["Content-Type", type]] + extra, body: .bytes(Array(text.utf8)))
    }
}
