/// What FFmpeg may open for one kind of input: the protocols (`protocol_whitelist`,
/// inherited by everything the input opens in turn — HLS segments, a redirect) and the
/// containers (`format_whitelist`). Without them a URL, a redirect or a playlist reaches
/// every protocol FFmpeg knows (file, pipe, tcp, udp, concat, subfile …) and every
/// demuxer's parser. docs/security.md.
public enum InputAccess: Sendable, Equatable {
    /// A channel's stream over the network (http, https, HLS with AES-128).
    case networkStream
    /// A file the user named: a board config's path, `delaybox play FILE`.
    case namedFile
    /// A clip fetched over the network (`AudioFile.download`): http and https only.
    case clipDownload
    /// A live HLS station's segments as the box fetches them (`HLSSegmentFeed`): no
    /// protocol of FFmpeg's own, one container.
    case hlsSegments
    /// A clip's file on disk (the cache's copy, a mute music path): one audio file, never
    /// a playlist that would open others.
    case clipFile

    /// The access a channel URL gets: a path or `file:` URL is a file the user named.
    public static func channel(_ url: String) -> InputAccess {
        !url.contains("://") || url.lowercased().hasPrefix("file:") ? .namedFile : .networkStream
    }

    /// The containers a radio station streams in (docs/security.md lists them with the
    /// formats each carries): MP3 (and MP2), ADTS AAC, Ogg (Opus, Vorbis, FLAC), FLAC,
    /// WAV, Matroska/WebM, MP4/fMP4 (`mov`), MPEG-TS and HLS.
    public static let audioContainers = ["mp3", "aac", "ogg", "flac", "wav", "matroska", "mov", "mpegts"]

    /// FFmpeg's `protocol_whitelist`.
    public var protocols: String {
        switch self {
        case .networkStream: "http,https,tls,tcp,hls,crypto,httpproxy"
        case .namedFile: "file,crypto"
        case .clipDownload: "http,https,tls,tcp"
        // A name no protocol has: the feed fetches, FFmpeg only parses.
        case .hlsSegments: "none"
        case .clipFile: "file"
        }
    }

    /// FFmpeg's `format_whitelist`: a playlist (HLS) for streams, one file for clips.
    public var formats: String {
        switch self {
        case .hlsSegments: "mpegts,aac,mp3"
        case .clipFile, .clipDownload: Self.audioContainers.joined(separator: ",")
        case .networkStream, .namedFile: (Self.audioContainers + ["hls"]).joined(separator: ",")
        }
    }
}
