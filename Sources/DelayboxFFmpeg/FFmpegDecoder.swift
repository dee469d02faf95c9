import CFFmpeg
import DelayboxEngine

/// Decodes stored packets at playout with libavcodec and resamples them with
/// libswresample to the internal format (48 kHz, stereo, interleaved Float32).
///
/// Resampling turns packet lengths into fractional frame counts (an MP3 frame of 1152
/// samples at 44.1 kHz is 1253.88 frames at 48 kHz); decoded audio goes through a small
/// FIFO so every call delivers exactly the packet's timeline duration and the remainder
/// carries over: the audio stays continuous. Buffers are allocated once.
public final class FFmpegDecoder: PacketDecoder {
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var resampler: OpaquePointer?
    private let packet: UnsafeMutablePointer<AVPacket>
    private let frame: UnsafeMutablePointer<AVFrame>
    /// Resampled frames waiting to be delivered, interleaved stereo.
    private let fifo: UnsafeMutableBufferPointer<Float>
    private var fifoFrames = 0
    private static let fifoCapacityFrames = 65_536
    public let prerollPackets: Int
    private let parameters: CodecParameters
    /// Set when a reset could not re-initialise the resampler; every decode then fails.
    private var resamplerFailure: FFmpegError?

    /// The corresponding C functions are `avcodec_open2` and `swr_alloc_set_opts2`.
    public init(parameters: CodecParameters) throws(FFmpegError) {
        self.parameters = parameters
        prerollPackets = parameters.prerollPackets
        guard let decoder = avcodec_find_decoder(parameters.pointer.pointee.codec_id) else {
            throw FFmpegLibrary.noDecoder(for: parameters.pointer.pointee.codec_id)
        }
        guard let packet = av_packet_alloc(), let frame = av_frame_alloc() else {
            throw FFmpegError(operation: "av_packet_alloc", code: dbx_averror(ENOMEM))
        }
        self.packet = packet
        self.frame = frame
        fifo = .allocate(capacity: Self.fifoCapacityFrames * AudioFormat.channelCount)
        codec = avcodec_alloc_context3(decoder)
        try FFmpegError.check(avcodec_parameters_to_context(codec, parameters.pointer), "avcodec_parameters_to_context")
        try FFmpegError.check(avcodec_open2(codec, decoder, nil), "avcodec_open2")
        try openResampler()
    }

    deinit {
        avcodec_free_context(&codec)
        swr_free(&resampler)
        var ownedPacket: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&ownedPacket)
        var ownedFrame: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&ownedFrame)
        fifo.deallocate()
    }

    private func openResampler() throws(FFmpegError) {
        swr_free(&resampler)
        var input = AVChannelLayout()
        let source = codec!.pointee.ch_layout
        if source.order == AV_CHANNEL_ORDER_UNSPEC || source.nb_channels == 0 {
            av_channel_layout_default(&input, max(source.nb_channels, 1))
        } else {
            try FFmpegError.check(
                withUnsafePointer(to: source) { av_channel_layout_copy(&input, $0) }, "av_channel_layout_copy")
        }
        defer { av_channel_layout_uninit(&input) }
        var output = AVChannelLayout()
        av_channel_layout_default(&output, Int32(AudioFormat.channelCount))
        defer { av_channel_layout_uninit(&output) }
        try FFmpegError.check(
            swr_alloc_set_opts2(
                &resampler, &output, AV_SAMPLE_FMT_FLT, Int32(AudioFormat.sampleRate),
                &input, codec!.pointee.sample_fmt, codec!.pointee.sample_rate, 0, nil),
            "swr_alloc_set_opts2")
        try FFmpegError.check(swr_init(resampler), "swr_init")
    }

    public func decode(
        _ payload: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableBufferPointer<Float>
    ) throws -> Int {
        // A packet that borrows the payload: libavcodec copies data it must keep.
        packet.pointee.data = UnsafeMutablePointer(mutating: payload.bindMemory(to: UInt8.self).baseAddress)
        packet.pointee.size = Int32(payload.count)
        defer {
            packet.pointee.data = nil
            packet.pointee.size = 0
        }
        if let resamplerFailure { throw resamplerFailure }
        let sent = avcodec_send_packet(codec, packet)
        if sent < 0, sent != dbx_averror(EAGAIN) { throw FFmpegError(operation: "avcodec_send_packet", code: sent) }
        while true {
            let received = avcodec_receive_frame(codec, frame)
            if received == dbx_averror(EAGAIN) || received == dbx_averror_eof() { break }
            try FFmpegError.check(received, "avcodec_receive_frame")
            defer { av_frame_unref(frame) }
            try resample(frame)
        }
        let count = min(frameCount, fifoFrames, output.count / AudioFormat.channelCount)
        let samples = count * AudioFormat.channelCount
        output.baseAddress!.update(from: fifo.baseAddress!, count: samples)
        fifoFrames -= count
        (fifo.baseAddress!).update(from: fifo.baseAddress! + samples, count: fifoFrames * AudioFormat.channelCount)
        return count
    }

    /// Appends `frame`, resampled, to the FIFO (dropping the oldest audio if a broken
    /// stream ever overfills it).
    private func resample(_ frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        if frame.pointee.sample_rate != codec!.pointee.sample_rate
            || frame.pointee.format != codec!.pointee.sample_fmt.rawValue
        {
            codec!.pointee.sample_rate = frame.pointee.sample_rate
            codec!.pointee.sample_fmt = AVSampleFormat(rawValue: frame.pointee.format)
            try openResampler()
        }
        let room = Self.fifoCapacityFrames - fifoFrames
        if room < Self.fifoCapacityFrames / 2 { fifoFrames = 0 }
        var target: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(
            fifo.baseAddress! + fifoFrames * AudioFormat.channelCount
        )
        .assumingMemoryBound(to: UInt8.self)
        let converted = frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) {
            input in
            swr_convert(
                resampler, &target, Int32(Self.fifoCapacityFrames - fifoFrames), input, frame.pointee.nb_samples)
        }
        try FFmpegError.check(converted, "swr_convert")
        fifoFrames += Int(converted)
    }

    /// The corresponding C functions are `avcodec_flush_buffers` and `swr_init` (which
    /// drops the resampler's buffered samples).
    public func reset() {
        avcodec_flush_buffers(codec)
        fifoFrames = 0
        swr_close(resampler)
        let code = swr_init(resampler)
        resamplerFailure = code < 0 ? FFmpegError(operation: "swr_init", code: code) : nil
    }
}
