// Fuzz target: a live HLS playlist as a CDN, or anyone between it and the box, sends it
// (issue 67: the box follows live HLS itself): every segment it keeps is an http or https
// URL the box may fetch, numbered without gaps, with a positive duration within the limit;
// a master playlist's variant is such a URL too.
import DelayboxEngine
import DelayboxUnits

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    switch HLSPlaylist.read(text, from: "https://cdn.example/radio/live.m3u8?token=1") {
    case .media(let playlist):
        precondition(!playlist.segments.isEmpty && playlist.segments.count <= HLSPlaylist.maxSegments)
        precondition(playlist.targetDuration > .zero && playlist.targetDuration <= .minutes(2))
        for (index, segment) in playlist.segments.enumerated() {
            precondition(segment.sequence == playlist.segments[0].sequence + index)
            precondition(segment.duration > .zero && segment.duration <= .seconds(121))
            precondition(ClipURL.problem(segment.url) == nil && !segment.url.hasPrefix("demo:"), segment.url)
        }
        if let start = playlist.startSequence { _ = playlist.segments(after: start) }
    case .variant(let url):
        precondition(ClipURL.problem(url) == nil, url)
    case .leftToFFmpeg, .refused:
        break
    }
    return 0
}
