import CFFmpeg
import Glibc

/// A whole resource over http or https through FFmpeg's protocols (certificates
/// verified; `InputAccess.clipDownload`: nothing else is reachable, not even through a
/// redirect): a clip to download, a station's playlist to read. Bounded, because the
/// server is a stranger: in bytes, in time without data and in time in all.
public enum HTTPFetch {
    /// Reads `url` to its end, handing each chunk to `consume`; returns the bytes read.
    /// Gives up after `timeoutMs` without data, when the whole read takes longer than
    /// `totalTimeoutMs` (a server that trickles), or beyond `maxBytes`; FFmpeg follows at
    /// most 8 redirects (a loop fails). `gate`, when given, also ends it on a stop request.
    /// The corresponding C functions are `avio_open2`, `avio_read` and `avio_closep`.
    public static func read(
        _ url: String, maxBytes: Int, timeoutMs: Int64 = 10_000, totalTimeoutMs: Int64 = 120_000,
        gate: InterruptGate = InterruptGate(),
        consume: (UnsafeRawBufferPointer) throws(FFmpegError) -> Void
    ) throws(FFmpegError) -> Int {
        var callback = AVIOInterruptCB(
            callback: InterruptGate.callback, opaque: Unmanaged.passUnretained(gate).toOpaque())
        var dictionary: OpaquePointer?
        av_dict_set(&dictionary, "user_agent", "Delaybox", 0)
        av_dict_set(&dictionary, "tls_verify", "1", 0)
        av_dict_set(&dictionary, "protocol_whitelist", InputAccess.clipDownload.protocols, 0)
        defer { av_dict_free(&dictionary) }
        let giveUp = InterruptGate.monotonicNanoseconds() + totalTimeoutMs * 1_000_000
        var context: UnsafeMutablePointer<AVIOContext>?
        gate.arm(milliseconds: timeoutMs)
        FFmpegLog.beginCall()
        // The callback holds the gate unretained: it must outlive the context.
        defer { withExtendedLifetime(gate) {} }
        try FFmpegError.check(avio_open2(&context, url, AVIO_FLAG_READ, &callback, &dictionary), "avio_open2")
        defer { avio_closep(&context) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while true {
            let left = (giveUp - InterruptGate.monotonicNanoseconds()) / 1_000_000
            guard left > 0 else {
                throw FFmpegError(
                    operation:
                        "download (slower than \(size(maxBytes)) in \(totalTimeoutMs / 1_000) s: \(total) bytes came)",
                    code: dbx_averror(ETIMEDOUT))
            }
            gate.arm(milliseconds: min(timeoutMs, left))
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

    /// The whole of `url` in memory (at most `maxBytes`): a playlist, a small document.
    public static func bytes(_ url: String, maxBytes: Int, gate: InterruptGate = InterruptGate()) throws(FFmpegError)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        _ = try read(url, maxBytes: maxBytes, totalTimeoutMs: 20_000, gate: gate) { chunk in
            bytes.append(contentsOf: chunk)
        }
        return bytes
    }

    private static func size(_ bytes: Int) -> String {
        bytes >= 1_000_000 ? "\(bytes / 1_000_000) MB" : "\(bytes / 1_000) KB"
    }
}
