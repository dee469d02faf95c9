// Fuzz target: a station link's text (`.pls`, `.m3u`, `.xspf`, `.asx`) as a station's web
// server, or anyone between it and the box, sends it: every stream it names must be an
// http or https URL the box may open, and there are never more than the limit.
import DelayboxEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    if case .streams(let streams) = StationPlaylist.read(text, from: "https://radio.example/listen/station.pls?sid=1") {
        precondition(!streams.isEmpty && streams.count <= StationPlaylist.maxEntries)
        for stream in streams { precondition(ClipURL.problem(stream) == nil && !stream.hasPrefix("demo:"), stream) }
    }
    return 0
}
