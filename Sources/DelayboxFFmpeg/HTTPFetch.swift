import CFFmpeg
import DelayboxUnits
import Glibc

/// A whole resource over http or https through FFmpeg's protocols (certificates
/// verified; `InputAccess.clipDownload`: nothing else is reachable, not even through a
/// redirect): a clip to download, a station's playlist to read. Bounded, because the
/// server is a stranger: in bytes, in time without data and in time in all.
public enum HTTPFetch {
    /// Reads `url` to its end, handing each chunk to `consume`; returns the bytes read.
    /// Gives up after `timeout` without data, when the whole read takes longer than
    /// `totalTimeout` (a server that trickles), or beyond `maxBytes`; FFmpeg follows at
    /// most 8 redirects (a loop fails). `gate`, when given, also ends it on a stop request.
    /// `landed` is told the URL the resource was found at, after redirects.
    /// The corresponding C functions are `avio_open2`, `avio_read` and `avio_closep`.
    public static func read(
        _ url: String, maxBytes: Int, timeout: TimeAmount = .seconds(10), totalTimeout: TimeAmount = .minutes(2),
        gate: InterruptGate = InterruptGate(), landed: ((String) -> Void)? = nil,
        consume: (UnsafeRawBufferPointer) throws(FFmpegError) -> Void
    ) throws(FFmpegError) -> Int {
        var callback = AVIOInterruptCB(
            callback: InterruptGate.callback, opaque: Unmanaged.passUnretained(gate).toOpaque())
        var dictionary: OpaquePointer?
        av_dict_set(&dictionary, "user_agent", "Delaybox", 0)
        av_dict_set(&dictionary, "tls_verify", "1", 0)
        av_dict_set(&dictionary, "protocol_whitelist", InputAccess.clipDownload.protocols, 0)
        defer { av_dict_free(&dictionary) }
        let giveUp = InterruptGate.monotonicNanoseconds() + totalTimeout.nanoseconds
        var context: UnsafeMutablePointer<AVIOContext>?
        gate.arm(for: timeout)
        FFmpegLog.beginCall()
        // The callback holds the gate unretained: it must outlive the context.
        defer { withExtendedLifetime(gate) {} }
        try FFmpegError.check(avio_open2(&context, url, AVIO_FLAG_READ, &callback, &dictionary), "avio_open2")
        defer { avio_closep(&context) }
        landed?(option("location", of: context) ?? url)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while true {
            let left = TimeAmount(nanoseconds: giveUp - InterruptGate.monotonicNanoseconds())
            guard left > .zero else {
                throw FFmpegError(
                    operation:
                        "download (slower than \(size(maxBytes)) in \(totalTimeout.secondsRoundedUp) s: \(total) bytes came)",
                    code: dbx_averror(ETIMEDOUT))
            }
            gate.arm(for: min(timeout, left))
            let read = buffer.withUnsafeMutableBufferPointer { avio_read(context, $0.baseAddress, Int32($0.count)) }
            if read == dbx_averror_eof() { break }
            try FFmpegError.check(read, "avio_read")
            total += Int(read)
            guard total <= maxBytes else {
                throw FFmpegError(operation: "download (larger than \(size(maxBytes)))", code: dbx_averror(EFBIG))
            }
            try buffer.withUnsafeBytes { bytes in
                Result { () throws(FFmpegError) in try consume(UnsafeRawBufferPointer(rebasing: bytes[..<Int(read)])) }
            }.get()
        }
        return total
    }

    /// The whole of `url` in memory (at most `maxBytes`, within `totalTimeout`): a playlist,
    /// a small document, an HLS segment; and its URL after redirects, which its relative
    /// links resolve against.
    public static func document(
        _ url: String, maxBytes: Int, totalTimeout: TimeAmount = .seconds(20), gate: InterruptGate = InterruptGate()
    ) throws(FFmpegError) -> (bytes: [UInt8], location: String) {
        var bytes: [UInt8] = []
        var location = url
        _ = try read(
            url, maxBytes: maxBytes, timeout: min(.seconds(10), totalTimeout), totalTimeout: totalTimeout, gate: gate,
            landed: { location = $0 }
        ) { chunk in
            bytes.append(contentsOf: chunk)
        }
        return (bytes, location)
    }

    /// A string option of the protocol under `context` (`location`: the URL after redirects).
    /// The corresponding C function is `av_opt_get`.
    private static func option(_ name: String, of context: UnsafeMutablePointer<AVIOContext>?) -> String? {
        var value: UnsafeMutablePointer<UInt8>?
        guard let context, av_opt_get(context, name, AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { return nil }
        defer { av_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }

    private static func size(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? "\(bytes / 1_000_000) MB" : "\(bytes / 1_000) KB"
    }
}
