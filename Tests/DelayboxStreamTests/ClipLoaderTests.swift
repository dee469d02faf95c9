import DelayboxClips
import DelayboxTestSupport
import Foundation
import Testing

/// The clip loader's thread: a clip that cannot be fetched is said once, with when it is
/// tried again — 30 s ±20 % the first time (issue 43: one back-off, jittered, so that a
/// venue's boxes do not ask a failed server again in step) — and not tried before.
@Suite(.timeLimit(.minutes(10))) struct ClipLoaderTests {
    @Test func aClipThatFailsIsTriedAgainAfterAJitteredWait() throws {
        let directory = try ExternalTool.temporaryDirectory("clip-loader")
        defer { try? FileManager.default.removeItem(at: directory) }
        let loader = ClipLoader(cache: ClipCache(directory: directory, capBytes: 1_000_000))
        loader.start()
        defer { loader.stop() }
        // Nothing listens on loopback's port 9: refused at once.
        loader.want("http://127.0.0.1:9/ad.mp3", maxSeconds: 5)
        var results: [ClipLoader.Result] = []
        #expect(
            Eventually.holds(within: 15) {
                results += loader.drain(); return !results.isEmpty
            })
        guard case .failed(let url, _, let retry)? = results.first else {
            Issue.record("not a failure: \(results)")
            return
        }
        #expect(url == "http://127.0.0.1:9/ad.mp3")
        #expect((24...36).contains(retry), "retry in \(retry) s")
        // Asked again meanwhile: still one want, not tried before its time.
        loader.want("http://127.0.0.1:9/ad.mp3", maxSeconds: 5)
        #expect(!Eventually.holds(within: 1) { !loader.drain().isEmpty }, "tried again before its wait")
    }
}
