import CFFmpeg
import DelayboxEngine
import DelayboxUnits
import Glibc

/// Whole audio files through FFmpeg — mute music and ads: fetched from an http or https
/// URL (certificates verified) and decoded in one go to the internal format.
public enum AudioFile {
    /// Copies `url` (http or https: `HTTPFetch`) byte for byte to `path` (created or
    /// replaced); returns the bytes copied. The limits are `HTTPFetch.read`'s.
    public static func download(
        _ url: String, to path: String, maxBytes: Int, timeout: TimeAmount = .seconds(10),
        totalTimeout: TimeAmount = .minutes(2)
    ) throws(FFmpegError) -> Int {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw FFmpegError(operation: "open \(path) for writing", code: dbx_averror(errno)) }
        defer { close(file) }
        return try HTTPFetch.read(url, maxBytes: maxBytes, timeout: timeout, totalTimeout: totalTimeout) {
            (chunk) throws(FFmpegError) in
            var written = 0
            while written < chunk.count {
                let count = Glibc.write(file, chunk.baseAddress! + written, chunk.count - written)
                guard count > 0 else {
                    throw FFmpegError(operation: "write \(path)", code: dbx_averror(count < 0 ? errno : EIO))
                }
                written += count
            }
        }
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
                    try chunk.withUnsafeMutableBufferPointer {
                        try decoder.decode(payload, frameCount: 65_536, into: $0)
                    }
                }
                samples += chunk[0..<frames * AudioFormat.channelCount]
            } catch {
                // A damaged frame or two is silence; a file that never decodes is not audio.
                failures += 1
                if samples.isEmpty, failures >= 8 {
                    throw FFmpegError(operation: "decode (not audio?)", code: dbx_averror(EINVAL))
                }
            }
        }
        guard !samples.isEmpty else {
            throw FFmpegError(operation: "decode (no audio in the file)", code: dbx_averror(EINVAL))
        }
        return Array(samples.prefix(maxFrames * AudioFormat.channelCount))
    }
}
