import CFFmpeg

#if canImport(Glibc)
    import Glibc
#endif

/// What a decoder needs of a stream's codec parameters, as plain values: written to the
/// delay journal and made into `CodecParameters` again by the next process (`DelayJournal`).
public struct CodecRecord: Sendable, Equatable {
    public var codecID: Int32
    public var sampleRate: Int32
    public var channels: Int32
    public var format: Int32
    public var bitRate: Int64
    public var blockAlign: Int32
    public var frameSize: Int32
    /// The codec's set-up bytes (Opus's header, AAC's AudioSpecificConfig).
    public var extradata: [UInt8]

    /// The most set-up bytes a record may carry: a stranger's stream wrote them.
    public static let maximumExtradataBytes = 1 << 20

    public init(
        codecID: Int32, sampleRate: Int32, channels: Int32, format: Int32, bitRate: Int64, blockAlign: Int32,
        frameSize: Int32, extradata: [UInt8]
    ) {
        (self.codecID, self.sampleRate, self.channels, self.format) = (codecID, sampleRate, channels, format)
        (self.bitRate, self.blockAlign, self.frameSize, self.extradata) = (bitRate, blockAlign, frameSize, extradata)
    }
}

extension CodecParameters {
    /// These parameters as plain values.
    public var record: CodecRecord {
        let p = pointer.pointee
        let extra = p.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(0, p.extradata_size)))) }
        return CodecRecord(
            codecID: Int32(bitPattern: p.codec_id.rawValue), sampleRate: p.sample_rate,
            channels: p.ch_layout.nb_channels,
            format: p.format, bitRate: p.bit_rate, blockAlign: p.block_align, frameSize: p.frame_size,
            extradata: extra ?? [])
    }

    /// Parameters made from a record; throws when it is out of range or FFmpeg refuses.
    public convenience init(record: CodecRecord) throws(FFmpegError) {
        guard record.sampleRate > 0, record.sampleRate <= 768_000, record.channels > 0, record.channels <= 64,
            record.extradata.count <= CodecRecord.maximumExtradataBytes
        else { throw FFmpegError(operation: "a recorded codec", code: dbx_averror_invaliddata()) }
        guard let made = avcodec_parameters_alloc() else {
            throw FFmpegError(operation: "avcodec_parameters_alloc", code: dbx_averror(ENOMEM))
        }
        defer {
            var owned: UnsafeMutablePointer<AVCodecParameters>? = made
            avcodec_parameters_free(&owned)
        }
        made.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        made.pointee.codec_id = AVCodecID(rawValue: UInt32(bitPattern: record.codecID))
        made.pointee.sample_rate = record.sampleRate
        av_channel_layout_default(&made.pointee.ch_layout, record.channels)
        made.pointee.format = record.format
        made.pointee.bit_rate = record.bitRate
        made.pointee.block_align = record.blockAlign
        made.pointee.frame_size = record.frameSize
        if !record.extradata.isEmpty {
            // FFmpeg reads set-up bytes with its padding of zeros after them.
            let padded = Int(AV_INPUT_BUFFER_PADDING_SIZE)
            guard let bytes = av_mallocz(record.extradata.count + padded)?.assumingMemoryBound(to: UInt8.self) else {
                throw FFmpegError(operation: "av_mallocz", code: dbx_averror(ENOMEM))
            }
            bytes.update(from: record.extradata, count: record.extradata.count)
            made.pointee.extradata = bytes
            made.pointee.extradata_size = Int32(record.extradata.count)
        }
        try self.init(copying: made)
    }
}
