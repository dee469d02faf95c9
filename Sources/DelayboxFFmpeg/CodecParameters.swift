import CFFmpeg
import DelayboxUnits

#if canImport(Glibc)
    import Glibc
#endif

/// An owned copy of a stream's codec parameters, handed from the input (network thread)
/// to the decoders it configures (playout thread).
///
/// `@unchecked Sendable`: the copy is made once in `init` and only read afterwards
/// (`avcodec_parameters_to_context` takes it as const), so sharing it across threads is safe.
public final class CodecParameters: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVCodecParameters>
    /// Whether the connection delivers the audio a segment at a time (HLS, DASH): not a
    /// codec's, but known where the codec is (a journal's copy says false).
    public let deliveredInSegments: Bool
    /// How long apart the segments come, when the box fetches them itself (a followed HLS
    /// playlist's target duration); nil when FFmpeg's demuxer does, or for a byte stream.
    public let segmentDuration: TimeAmount?

    init(
        copying source: UnsafePointer<AVCodecParameters>, deliveredInSegments: Bool = false,
        segmentDuration: TimeAmount? = nil
    ) throws(FFmpegError) {
        self.deliveredInSegments = deliveredInSegments
        self.segmentDuration = segmentDuration
        guard let pointer = avcodec_parameters_alloc() else {
            throw FFmpegError(operation: "avcodec_parameters_alloc", code: dbx_averror(ENOMEM))
        }
        self.pointer = pointer
        do {
            try FFmpegError.check(avcodec_parameters_copy(pointer, source), "avcodec_parameters_copy")
        } catch {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = pointer
            avcodec_parameters_free(&owned)
            throw error
        }
    }

    deinit {
        var owned: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&owned)
    }

    /// The codec's short name, e.g. `mp3`, `aac`, `opus`.
    public var codecName: String { String(cString: avcodec_get_name(pointer.pointee.codec_id)) }
    /// The stream's sample rate in Hz.
    public var sampleRate: Int { Int(pointer.pointee.sample_rate) }
    /// The stream's channel count.
    public var channelCount: Int { Int(pointer.pointee.ch_layout.nb_channels) }

    /// Whether a decoder for `other` would decode the same way (codec, rate, channels, extradata).
    public func matches(_ other: CodecParameters) -> Bool {
        let a = pointer.pointee, b = other.pointer.pointee
        guard a.codec_id == b.codec_id, a.sample_rate == b.sample_rate,
            a.ch_layout.nb_channels == b.ch_layout.nb_channels,
            a.extradata_size == b.extradata_size
        else { return false }
        guard a.extradata_size > 0 else { return true }
        return memcmp(a.extradata, b.extradata, Int(a.extradata_size)) == 0
    }

    /// Packets a decoder needs after a reset before its output is exact: MP3's bit
    /// reservoir reaches back up to two frames, Opus and Vorbis need their pre-skip.
    var prerollPackets: Int {
        switch pointer.pointee.codec_id {
        case AV_CODEC_ID_OPUS: 4
        case AV_CODEC_ID_PCM_S16LE, AV_CODEC_ID_PCM_S16BE, AV_CODEC_ID_PCM_F32LE: 0
        default: 2
        }
    }
}
