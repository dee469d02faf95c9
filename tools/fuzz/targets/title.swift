// Fuzz target: a stream's title as it comes in an ICY metadata block or an Ogg comment —
// the tag parser, every value check, and which clips a title may name.
import DelayboxEngine

let channel = Channel(name: "Live", streamURL: "https://radio.example:8000/live.mp3", adsFrom: ["ads.example"])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let title = StreamEventConvention.streamTitle(fromIcyMetadata: text) ?? text
    let reading = StreamEventConvention.read(title: title)
    for event in reading.events {
        guard case .adBreak(let ad) = event else { continue }
        // What the parser let through is in the product's range, and says itself again.
        precondition(AdBreak.durationRangeMs.contains(ad.durationMs), "\(ad)")
        precondition(ad.startedAt.map { AdBreak.startRange.contains($0) } ?? true, "\(ad)")
        precondition(ClipURL.problem(ad.audioURL) == nil, "\(ad.audioURL)")
        _ = channel.adURLProblem(ad.audioURL)
        _ = StreamEventConvention.title(for: event, text: "")
    }
    return 0
}
