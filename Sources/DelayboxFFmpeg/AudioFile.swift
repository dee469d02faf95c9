import CFFmpeg
import DelayboxEngine
import Glibc

/// Whole audio files through FFmpeg — mute music and ads: fetched from an http or https
/// URL (certificates verified) and decoded in one go to the internal format.
public enum AudioFile {
    /// Copies `url` (http or https: `InputAccess.clipDownload`) byte for byte to `path`
    /// (created or replaced); returns the bytes copied. Gives up after `timeoutMs` without
    /// data, when the whole download takes longer than `totalTimeoutMs` (a server that
    /// trickles), or beyond `maxBytes`. FFmpeg follows at most 8 redirects (a loop fails).
    /// The corresponding C functions are `avio_open2`, `avio_read` and `avio_closep`.
    public static func download(_ url: String, to path: String, maxBytes: Int, timeoutMs: Int64 = 10_000,
                                totalTimeoutMs: Int64 = 120_000) throws(FFmpegError) -> Int {
        let gate = InterruptGate()
        var callback = AVIOInterruptCB(callback: InterruptGate.callback, opaque: Unmanaged.passUnretained(gate).toOpaque())
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
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw FFmpegError(operation: "open \(path) for writing", code: dbx_averror(errno)) }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var total = 0
        while true {
            let left = (giveUp - InterruptGate.monotonicNanoseconds()) / 1_000_000
            guard left > 0 else {
                throw FFmpegError(operation: "download (slower than \(maxBytes / 1_000_000) MB in \(totalTimeoutMs / 1_000) s: \(total) bytes came)",
                                  code: dbx_averror(ETIMEDOUT))
            }
            gate.arm(milliseconds: min(timeoutMs, left))
            let read = buffer.withUnsafeMutableBufferPointer { avio_read(context, $0.baseAddress, Int32($0.count)) }
            if read == dbx_averror_eof() { break }
            try FFmpegError.check(read, "avio_read")
            total += Int(read)
            guard total <= maxBytes else { throw FFmpegError(operation: "download (larger than \(maxBytes / 1_000_000) MB)", code: dbx_averror(EFBIG)) }
            var written = 0
            while written < Int(read) {
                let count = buffer.withUnsafeBytes { Glibc.write(file, $0.baseAddress! + written, Int(read) - written) }
                guard count > 0 else { throw FFmpegError(operation: "write \(path)", code: dbx_averror(count < 0 ? errno : EIO)) }
                written += count
            }
        }
        return total
    }

    /// Decodes the audio of the file at `url` (a path: `InputAccess.clipFile`) to
    /// interleaved stereo Float at 48 kHz, at most `maxFrames` frames. A file that holds no
    /// decodable audio throws: that is the check before a file is used.
    public static func decode(_ url: String, maxFrames: Int) throws(FFmpegError) -> [Float] {
        let input = try FFmpegInput(url: url, access: .clipFile, gate: InterruptGate())
        let decoder = try FFmpegDecoder(parameters: input.parameters)
        var samples: [Float] = []
        var chunk = [Float](repeating: 0, count: 65_536 * AudioFormat.channelCount)
        var failures = 0
        while samples.count < maxFrames * AudioFormat.channelCount, let packet = try input.readPacket() {
            do {
                let frames = try packet.payload.withUnsafeBytes { payload in
                    try chunk.withUnsafeMutableBufferPointer { try decoder.decode(payload, frameCount: 65_536, into: $0) }
                }
                samples += chunk[0..<frames * AudioFormat.channelCount]
            } catch {
                // A damaged frame or two is silence; a file that never decodes is not audio.
                failures += 1
                if samples.isEmpty, failures >= 8 { throw FFmpegError(operation: "decode (not audio?)", code: dbx_averror(EINVAL)) }
            }
        }
        guard !samples.isEmpty else { throw FFmpegError(operation: "decode (no audio in the file)", code: dbx_averror(EINVAL)) }
        return Array(samples.prefix(maxFrames * AudioFormat.channelCount))
    }
}
