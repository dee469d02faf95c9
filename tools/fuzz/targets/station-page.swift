// Fuzz target: a station's "listen live" web page as its web server, or anyone between it
// and the box, sends it: every candidate it yields must be an http or https URL the box
// may open, never the page itself, and there are never more than the limit.
import DelayboxEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    _ = StationPage.isPage(Array(bytes))
    let page = "https://radio.example/listen/live.html"
    let candidates = StationPage.candidates(String(decoding: bytes, as: UTF8.self), from: page)
    precondition(candidates.count <= StationPage.maxCandidates)
    precondition(Set(candidates).count == candidates.count, "no candidate twice")
    for candidate in candidates {
        precondition(ClipURL.problem(candidate) == nil && !candidate.lowercased().hasPrefix("demo:"), candidate)
        precondition(candidate != page, "the page is not its own stream")
    }
    return 0
}
