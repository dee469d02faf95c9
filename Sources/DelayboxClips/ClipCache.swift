import DelayboxFFmpeg
import DelayboxMixer
import DelayboxPlatform
import FoundationEssentials
import Glibc

/// Mute music and ad files on disk: each remote file is fetched once (http, https) and
/// kept in `directory` under a size cap, the least recently used going first; local files
/// (a path or `file:` URL) are read where they are; `demo://music` and `demo://ad` are
/// built in. Every file is decoded in full before
/// it is used — a file that is not audio is refused with the reason and not kept. When the
/// network is down, what is cached still plays.
///
/// Blocking (network, disk, decoding): runs on the clip loader's thread.
public final class ClipCache {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let directory: URL
    /// Bytes the cached files may take together.
    let capBytes: Int64
    /// A single download larger than this is refused: the longest clip kept (3 min of mute
    /// music) is 35 MB even as 16-bit 48 kHz WAV, and 4 MB as a 160 kbps MP3.
    static let maxFileBytes = 40_000_000

    public init(directory: URL, capBytes: Int64) {
        self.directory = directory
        self.capBytes = capBytes
    }

    /// The clip at `url`, at most `maxSeconds` long, from the cache or fetched now.
    func clip(_ url: String, maxSeconds: Int) throws(Failure) -> AudioClip {
        let maxFrames = maxSeconds * 48_000
        if url.hasPrefix("demo://") {
            guard let clip = DemoClips.clip(for: url) else {
                throw Failure(description: "\(url) is not a built-in clip (demo://music, demo://ad)")
            }
            return clip
        }
        guard Self.isRemote(url) else { return try decode(Self.localPath(url), label: url, maxFrames: maxFrames) }
        let cached = directory.appendingPathComponent(Self.fileName(for: url))
        if FileManager.default.fileExists(atPath: cached.path) {
            if let clip = try? decode(cached.path, label: url, maxFrames: maxFrames) {
                try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: cached.path)
                return clip
            }
            try? FileManager.default.removeItem(at: cached)  // damaged on disk: fetch again
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create the cache directory \(directory.path): \(ErrorText.of(error))")
        }
        let partial = directory.appendingPathComponent(".\(Self.fileName(for: url)).part")
        defer { try? FileManager.default.removeItem(at: partial) }
        let bytes: Int
        do throws(FFmpegError) {
            bytes = try AudioFile.download(url, to: partial.path, maxBytes: Self.maxFileBytes)
        } catch {
            throw Failure(description: "cannot fetch \(url): \(error)")
        }
        let clip = try decode(partial.path, label: url, maxFrames: maxFrames)
        evict(toFit: Int64(bytes))
        do {
            try? FileManager.default.removeItem(at: cached)
            try FileManager.default.moveItem(at: partial, to: cached)
        } catch {
            throw Failure(description: "cannot keep \(url) in \(directory.path): \(ErrorText.of(error))")
        }
        return clip
    }

    /// The files in the cache (name, bytes), least recently used first.
    func entries() -> [(name: String, bytes: Int64)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.compactMap { name -> (String, Int64, Int64)? in
            var info = stat()
            guard stat(directory.appendingPathComponent(name).path, &info) == 0 else { return nil }
            return (name, Int64(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        }
        .sorted { $0.2 < $1.2 }
        .map { ($0.0, $0.1) }
    }

    /// Removes the least recently used files until `incoming` more bytes fit the cap.
    private func evict(toFit incoming: Int64) {
        var entries = entries()
        var total = entries.reduce(0) { $0 + $1.bytes } + incoming
        while total > capBytes, !entries.isEmpty {
            let oldest = entries.removeFirst()
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(oldest.name))
            total -= oldest.bytes
        }
    }

    private func decode(_ path: String, label: String, maxFrames: Int) throws(Failure) -> AudioClip {
        do throws(FFmpegError) {
            return AudioClip(stereo: try AudioFile.decode(path, maxFrames: maxFrames))
        } catch {
            throw Failure(description: "\(label) is not usable audio: \(error)")
        }
    }

    static func isRemote(_ url: String) -> Bool { url.hasPrefix("http://") || url.hasPrefix("https://") }

    static func localPath(_ url: String) -> String {
        url.hasPrefix("file://") ? URL(string: url)?.path ?? String(url.dropFirst(7)) : url
    }

    /// A stable name per URL (FNV-1a, 64 bits) keeping the file's extension for FFmpeg's probe.
    static func fileName(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let name = String(hash, radix: 16)
        let ext = URL(string: url)?.pathExtension ?? ""
        return ext.isEmpty || ext.count > 5 ? name : "\(name).\(ext)"
    }
}
