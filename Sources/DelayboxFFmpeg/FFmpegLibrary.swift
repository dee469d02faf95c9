import CFFmpeg

/// The FFmpeg this program links: the box's own (tools/ffmpeg/build.sh), built with only
/// the protocols, containers and decoders in tools/ffmpeg/components. What it can open is
/// what it was built with; these say so in words (`version`, refusals).
public enum FFmpegLibrary {
    /// FFmpeg's version with Debian's revision of its source, e.g. `7.1.5-0+deb13u1`
    /// (the corresponding C function is `av_version_info`).
    public static var version: String { String(cString: av_version_info()) }

    /// The configure line it was built with (`avformat_configuration`).
    public static var configuration: String { String(cString: avformat_configuration()) }

    /// The containers it can read, by the names `format_whitelist` takes (`av_demuxer_iterate`;
    /// one demuxer may have several: `matroska,webm`).
    public static var demuxers: [String] {
        var names: [String] = []
        var state: UnsafeMutableRawPointer?
        while let demuxer = av_demuxer_iterate(&state) {
            names += String(cString: demuxer.pointee.name).split(separator: ",").map(String.init)
        }
        return names
    }

    /// The audio formats it decodes, by codec name (`mp3`, `aac`, `pcm_s16le` …), sorted: the
    /// decoders' codecs, without the variants (`mp3float` decodes `mp3`).
    public static var audioCodecs: [String] {
        var names = Set<String>()
        var state: UnsafeMutableRawPointer?
        while let codec = av_codec_iterate(&state) {
            if av_codec_is_decoder(codec) != 0 { names.insert(String(cString: avcodec_get_name(codec.pointee.id))) }
        }
        return names.sorted()
    }

    /// The refusal of a codec it has no decoder for, naming the ones it has.
    static func noDecoder(for codec: AVCodecID) -> FFmpegError {
        FFmpegError(
            operation: "avcodec_find_decoder(\(String(cString: avcodec_get_name(codec))))",
            code: dbx_averror_decoder_not_found(),
            detail: "not an audio format this box decodes: \(audioCodecs.joined(separator: ","))")
    }
}
