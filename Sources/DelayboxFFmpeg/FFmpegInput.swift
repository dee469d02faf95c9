import CFFmpeg
import DelayboxChecked
import DelayboxEngine

/// One open connection to a channel URL through libavformat: Icecast/SHOUTcast over http
/// and https, HLS, local files, in the formats the box's FFmpeg is built with
/// (tools/ffmpeg/components). It reads the best audio stream's
/// packets and stamps them on the connection's own timeline (frames of the internal
/// format from the first packet), which is what the engine places.
///
/// Not thread-safe: one I/O thread opens, reads and closes it. Another thread may end a
/// blocking call through the shared `InterruptGate`.
public final class FFmpegInput {
    public struct Options: Sendable {
        /// No data for this long counts as a stall.
        public var stallTimeout = TimeAmount.seconds(5)
        public var userAgent = "Delaybox"
        public init() {}
    }

    private var context: UnsafeMutablePointer<AVFormatContext>?
    private let gate: InterruptGate
    private let options: Options
    /// The HLS station the box follows itself, when it does; released after the format
    /// context that reads through it.
    private let feed: HLSSegmentFeed?
    private let streamIndex: Int32
    private let timeBase: AVRational
    /// The audio stream's codec parameters, for the decoders at playout.
    public let parameters: CodecParameters
    private var firstTimestamp: Int64?
    /// Next connection timestamp (frames) when a packet carries no pts of its own.
    private var nextTimestamp: Int64 = 0
    private let packet: UnsafeMutablePointer<AVPacket>
    /// The last ICY metadata block seen: the server repeats it in every block, and it is
    /// parsed only when it changes (this runs for every packet).
    private var lastIcyMetadata: String?
    /// A new ICY title and the byte offset of its block, until the packets read reach it.
    private var pendingIcy: (title: String, byte: Int64)?
    /// Bytes the protocol had delivered when the ICY metadata was last looked at: a block
    /// that shows up after the next read lies at or after this offset.
    private var icyCheckedByte: Int64 = 0
    /// Where the recent packets were in the byte stream, to place ICY blocks.
    private var byteMap = PacketByteMap()
    /// Titles found and placed, not yet taken by `takeTitle()`.
    private var placedTitles: [(title: String, connectionTimestamp: Int64)] = []
    /// Bytes and frames of the packets read, for the frames per byte of this stream.
    private var receivedBytes: Int64 = 0
    private var receivedFrames: Int64 = 0
    /// Where the packets read lie in the byte stream (Ogg gives a page's offset only).
    private var packetBytes = PacketBytePositions()
    /// The last title handed out: a repeat is not news.
    private var lastTitle: String?
    /// The largest packet read on this connection (bytes).
    public private(set) var largestPacketBytes = 0
    /// The longest a read has waited on this connection (ns), the first (the opening's
    /// fetches) left out.
    private var longestWait: Int64 = 0
    private var readBefore = false

    /// The least a read of HLS or DASH may wait: FFmpeg's demuxer waits for the next
    /// playlist inside one read — up to a segment's length (10 s is common), then fetches
    /// it. Cutting that at the 5 s of a byte stream lost 6 s segments' audio (issue 67).
    public static let segmentedStall = TimeAmount.seconds(30)
    /// The most: a station whose segments are longer still is followed up to this.
    public static let segmentedStallMax = TimeAmount.minutes(2)

    /// How long the next read may wait before it counts as a stall: the option for a byte
    /// stream; for segments the longer of `segmentedStall` and three times the longest wait
    /// seen on this connection, at most `segmentedStallMax`.
    var readStall: TimeAmount {
        guard !readsOneByteStream else { return options.stallTimeout }
        let seen = TimeAmount(nanoseconds: 3 * longestWait)
        return min(Self.segmentedStallMax, max(options.stallTimeout, Self.segmentedStall, seen))
    }

    /// Opens `url` with what `access` allows; blocks at most the stall timeout per network step.
    public convenience init(url: String, access: InputAccess, options: Options = Options(), gate: InterruptGate)
        throws(FFmpegError)
    {
        try self.init(url: url, feed: nil, access: access, options: options, gate: gate)
    }

    /// A live HLS station's media `playlist` (fetched from `playlistURL`), its segments
    /// fetched by the box as they are listed (`HLSSegmentFeed`) and demuxed as one MPEG-TS,
    /// ADTS or MP3 stream. Throws when its segments are in none of these.
    public static func followingHLS(
        playlistURL: String, playlist: HLSPlaylist, options: Options = Options(), gate: InterruptGate
    ) throws(FFmpegError) -> FFmpegInput {
        let feed = try HLSSegmentFeed(playlistURL: playlistURL, playlist: playlist, gate: gate)
        return try FFmpegInput(url: nil, feed: feed, access: .hlsSegments, options: options, gate: gate)
    }

    /// Opens `url`, or the stream `feed` hands on when given.
    /// The corresponding C functions are `avformat_open_input` and `avformat_find_stream_info`.
    private init(url: String?, feed: HLSSegmentFeed?, access: InputAccess, options: Options, gate: InterruptGate)
        throws(FFmpegError)
    {
        self.gate = gate
        self.options = options
        self.feed = feed
        guard let context = avformat_alloc_context(), let packet = av_packet_alloc() else {
            throw FFmpegError(operation: "avformat_alloc_context", code: dbx_averror(ENOMEM))
        }
        self.packet = packet
        context.pointee.interrupt_callback = AVIOInterruptCB(
            callback: InterruptGate.callback, opaque: Unmanaged.passUnretained(gate).toOpaque())
        var dictionary: OpaquePointer?
        av_dict_set(&dictionary, "user_agent", options.userAgent, 0)
        av_dict_set(&dictionary, "icy", "1", 0)
        // Certificates are verified (https); reconnecting is ours, not FFmpeg's.
        av_dict_set(&dictionary, "tls_verify", "1", 0)
        av_dict_set(&dictionary, "reconnect", "0", 0)
        av_dict_set(&dictionary, "protocol_whitelist", access.protocols, 0)
        av_dict_set(&dictionary, "format_whitelist", access.formats, 0)
        // Probing the format reads ahead (up to 1 MB by default, seconds of a live stream),
        // and ICY blocks parsed during that read cannot be placed; 16 KB recognises every
        // format we meet and keeps the read-ahead to about one ICY interval.
        av_dict_set(&dictionary, "formatprobesize", "16384", 0)
        defer { av_dict_free(&dictionary) }
        if let feed {
            context.pointee.pb = feed.io
            context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        gate.arm(for: options.stallTimeout)
        FFmpegLog.beginCall()
        do throws(FFmpegError) {
            try FFmpegError.check(avformat_open_input(&opened, url ?? "", nil, &dictionary), "avformat_open_input")
            self.context = opened
            gate.arm(for: options.stallTimeout)
            try FFmpegError.check(avformat_find_stream_info(opened, nil), "avformat_find_stream_info")
            let index = try FFmpegError.check(
                av_find_best_stream(opened, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0), "av_find_best_stream")
            let stream = opened!.pointee.streams[Int(index)]!
            // Refused here, before any audio is taken, when the library cannot decode it.
            let codec = stream.pointee.codecpar.pointee.codec_id
            guard avcodec_find_decoder(codec) != nil else { throw FFmpegLibrary.noDecoder(for: codec) }
            streamIndex = index
            timeBase = stream.pointee.time_base
            // Over the network: a playlist of files on disk is read at the pace it is played.
            parameters = try CodecParameters(
                copying: stream.pointee.codecpar,
                deliveredInSegments: feed != nil
                    || access == .networkStream
                        && Self.segmentedFormats.contains(String(cString: opened!.pointee.iformat.pointee.name)),
                segmentDuration: feed?.targetDuration)
        } catch {
            avformat_close_input(&opened)
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
            // A protocol or container off the lists is FFmpeg's EINVAL, one the library was
            // built without is not found, and a format it cannot recognise is invalid data:
            // say what is allowed.
            let refusals = [
                dbx_averror(EINVAL), dbx_averror_protocol_not_found(), dbx_averror_demuxer_not_found(),
                dbx_averror_invaliddata(),
            ]
            guard refusals.contains(error.code), error.operation == "avformat_open_input" else { throw error }
            throw FFmpegError(
                operation: error.operation, code: error.code,
                detail: (error.detail.map { $0 + "; " } ?? "")
                    + "this input opens protocols \(access.protocols) and containers \(access.formats)")
        }
    }

    deinit {
        avformat_close_input(&context)
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
    }

    /// The container's name, e.g. `mp3`, `ogg`, `hls`.
    public var formatName: String { context.map { String(cString: $0.pointee.iformat.pointee.name) } ?? "" }

    /// Bytes fetched and not yet parsed into packets: while the next packet lies in them, a
    /// read does not wait on the network.
    public var bufferedBytes: Int {
        guard let io = context?.pointee.pb else { return 0 }
        return io.pointee.buf_end - io.pointee.buf_ptr
    }

    /// Whether the packets are parsed from the one byte stream the connection reads (an
    /// Icecast or SHOUTcast stream), so that `bufferedBytes` says when a read will wait
    /// on the network; HLS and DASH fetch segments through connections of their own.
    public var readsOneByteStream: Bool { !readsSegments && context?.pointee.pb != nil }

    /// HLS or DASH: segments fetched apart, a playlist waited for inside a read. Known once
    /// opened (asked for every packet: not the container's name made into a String each time).
    private lazy var readsSegments = feed != nil || Self.segmentedFormats.contains(formatName)
    /// The containers whose audio comes in segments fetched apart.
    static let segmentedFormats: Set = ["hls", "dash"]

    /// Reads the next audio packet; nil at the end of the stream.
    /// Throws on network errors and stalls (`FFmpegError.isInterrupted`, `gate.didStall`).
    /// The corresponding C function is `av_read_frame`.
    public func readPacket() throws(FFmpegError) -> StreamPacket? {
        while true {
            gate.arm(for: readStall)
            FFmpegLog.beginCall()
            let began = InterruptGate.monotonicNanoseconds()
            let code = av_read_frame(context, packet)
            if readBefore { longestWait = max(longestWait, InterruptGate.monotonicNanoseconds() - began) }
            readBefore = true
            if code == dbx_averror_eof() { return nil }
            if code < 0, let failure = feed?.failure {
                throw FFmpegError(operation: "HLS", code: code, detail: failure)
            }
            try FFmpegError.check(code, "av_read_frame")
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex, packet.pointee.size > 0 else { continue }
            var stamped = stamped(packet.pointee)
            largestPacketBytes = max(largestPacketBytes, Int(packet.pointee.size))
            if packet.pointee.pos >= 0 {
                let start = packetBytes.place(offset: packet.pointee.pos, size: Int(packet.pointee.size))
                // A followed HLS segment is read whole before any of it is parsed: its last
                // packet says where its audio ends, exactly. (Counted from the bytes read
                // ahead at the payload's frames per byte, MPEG-TS's packet headers made each
                // delivery's end scatter by tens of ms, and the station's rate hid in them.)
                if feed == nil {
                    stamped.receivedAheadFrames = receivedAhead(
                        byteCount: packet.pointee.size, frames: stamped.durationFrames)
                }
                byteMap.record(
                    byte: start, byteCount: Int(packet.pointee.size),
                    timestamp: stamped.connectionTimestamp, durationFrames: stamped.durationFrames)
            }
            if let title = chainedTitle() { placedTitles.append((title, stamped.connectionTimestamp)) }
            noticeIcyMetadata(fallback: stamped.connectionTimestamp)
            return stamped
        }
    }

    /// Audio fetched from the network beyond the packet just read (frames): the bytes the
    /// I/O layer has read past its end, at this connection's average frames per byte.
    /// (Counted from an Ogg page's offset, a one-second page's packets were placed up to a
    /// second too early, and heard up to a second less delayed than set.)
    private func receivedAhead(byteCount: Int32, frames: Int) -> Int64 {
        guard let io = context?.pointee.pb else { return 0 }
        receivedBytes += Int64(byteCount)
        receivedFrames += Int64(frames)
        guard let ahead = Checked.difference(io.pointee.pos, packetBytes.end), ahead > 0, receivedBytes > 0,
            let scaled = Checked.product(ahead, receivedFrames)
        else { return 0 }
        return scaled / receivedBytes
    }

    /// The packet with its connection timestamp and duration in frames of the internal
    /// format, both converted from the stream's time base by absolute rescaling, so that
    /// rounding never accumulates. Timestamps come from the stream's bytes: every
    /// difference is checked (`Checked`), and a packet whose timestamps cannot be used
    /// follows the one before it.
    private func stamped(_ packet: AVPacket) -> StreamPacket {
        let payload = [UInt8](UnsafeBufferPointer(start: packet.data, count: Int(packet.size)))
        let target = AVRational(num: 1, den: Int32(AudioFormat.sampleRate))
        var start = nextTimestamp
        var lostBefore = false
        var end =
            packet.duration > 0 ? Checked.sum(start, av_rescale_q(packet.duration, timeBase, target)) ?? start : start
        if packet.pts != dbx_nopts_value() {
            var first = firstTimestamp ?? packet.pts
            // A new Ogg chain link, an MPEG-TS wrap or an encoder restart behind an HLS
            // playlist starts its timestamps anew: the audio itself continues, so the
            // timeline does too. Segments a followed HLS playlist dropped before they were
            // fetched are audio lost: their gap is kept (`StreamPacket.followsLostAudio`).
            let jump = Checked.difference(packet.pts, first).flatMap {
                Checked.difference(av_rescale_q($0, timeBase, target), nextTimestamp)
            }
            if let jump, let feed, feed.isLostAudio(jumpFrames: jump) {
                lostBefore = true
            } else if firstTimestamp != nil,
                !(jump.map { (-Self.discontinuityFrames...Self.discontinuityFrames).contains($0) } ?? false)
            {
                first = Checked.difference(packet.pts, av_rescale_q(nextTimestamp, target, timeBase)) ?? first
            }
            if let offset = Checked.difference(packet.pts, first) {
                firstTimestamp = first
                start = av_rescale_q(offset, timeBase, target)
                let last = packet.duration > 0 ? Checked.sum(offset, packet.duration) : nil
                end = last.map { av_rescale_q($0, timeBase, target) } ?? start
            }
        }
        let duration =
            end > start && end - start <= Self.longestPacketFrames ? end - start : Int64(fallbackDurationFrames)
        nextTimestamp = Checked.sum(start, duration) ?? start
        var stamped = StreamPacket(payload: payload, connectionTimestamp: start, durationFrames: Int(duration))
        stamped.followsLostAudio = lostBefore
        return stamped
    }

    /// A packet said to last longer than this (frames, 10 s) is taken as one codec frame:
    /// codecs' frames are milliseconds long, and a stream's number is not to be trusted.
    static let longestPacketFrames = Int64(AudioFormat.sampleRate) * 10

    /// Timestamps that jump by more than this (frames, 1 s) from where the previous packet
    /// ended are a discontinuity, not a gap in the audio.
    static let discontinuityFrames: Int64 = Int64(AudioFormat.sampleRate)

    /// A packet without a duration is assumed to be one codec frame long.
    private var fallbackDurationFrames: Int {
        let frameSize = Int(parameters.pointer.pointee.frame_size)
        let rate = max(parameters.sampleRate, 1)
        return frameSize > 0 ? frameSize * AudioFormat.sampleRate / rate : AudioFormat.framesPerMillisecond * 20
    }

    /// The next stream title carried since the last call, with the connection timestamp
    /// where it was carried: an ICY `StreamTitle` (Icecast and SHOUTcast) at its metadata
    /// block, or the `title` comment of a new Ogg chain link (Opus, Vorbis) at the link's
    /// first packet. A title repeated is not news.
    public func takeTitle() -> (title: String, connectionTimestamp: Int64)? {
        while !placedTitles.isEmpty {
            let next = placedTitles.removeFirst()
            guard next.title != lastTitle else { continue }
            lastTitle = next.title
            return next
        }
        return nil
    }

    /// Looks for a new ICY block after each packet. FFmpeg parses a block as the protocol
    /// reads past it, stopping each read at the block, so the block lies between the
    /// bytes delivered at the previous look and those delivered now: it is placed at the
    /// first of these (exact when reads are large, at most one network read early when
    /// they trickle in), then mapped to the audio at that byte. Reading ahead (the probe at
    /// open holds seconds of audio) is why the packet just read is not the place.
    /// - Parameter fallback: the connection timestamp of the packet just read.
    private func noticeIcyMetadata(fallback: Int64) {
        let delivered = context?.pointee.pb?.pointee.pos ?? 0
        defer { icyCheckedByte = delivered }
        if let metadata = icyMetadata, metadata != lastIcyMetadata {
            lastIcyMetadata = metadata
            if let title = StreamEventConvention.streamTitle(fromIcyMetadata: metadata) {
                pendingIcy = (title, icyCheckedByte)
            }
        }
        guard let pending = pendingIcy else { return }
        // Without byte positions (a demuxer that keeps none), the packet just read.
        guard let timestamp = byteMap.isEmpty ? fallback : byteMap.timestamp(atByte: pending.byte) else { return }
        placedTitles.append((pending.title, timestamp))
        pendingIcy = nil
    }

    /// The title of a new chain link: Vorbis links carry it as packet side data, Opus
    /// links as updated stream metadata, flagged until we clear the flag. FFmpeg appends a
    /// new link's comments to the old ones (`old;new`), so the title is taken out of the
    /// stream's metadata once read.
    /// The corresponding C functions are `av_packet_get_side_data` and `av_dict_get`.
    private func chainedTitle() -> String? {
        var size = 0
        if let data = av_packet_get_side_data(packet, AV_PKT_DATA_METADATA_UPDATE, &size) {
            var dictionary: OpaquePointer?
            defer { av_dict_free(&dictionary) }
            if av_packet_unpack_dictionary(data, size, &dictionary) >= 0, let title = Self.title(in: dictionary) {
                return title
            }
        }
        guard let stream = context?.pointee.streams[Int(streamIndex)],
            stream.pointee.event_flags & AVSTREAM_EVENT_FLAG_METADATA_UPDATED != 0
        else { return nil }
        stream.pointee.event_flags &= ~AVSTREAM_EVENT_FLAG_METADATA_UPDATED
        defer { av_dict_set(&stream.pointee.metadata, "title", nil, 0) }
        return Self.title(in: stream.pointee.metadata)
    }

    private static func title(in dictionary: OpaquePointer?) -> String? {
        guard let entry = av_dict_get(dictionary, "title", nil, 0), let value = entry.pointee.value else { return nil }
        return String(cString: value)
    }

    /// The ICY metadata block the server sent last, if any.
    /// The corresponding C function is `av_opt_get` on `icy_metadata_packet`.
    var icyMetadata: String? {
        guard let io = context?.pointee.pb else { return nil }
        var value: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(io, "icy_metadata_packet", AV_OPT_SEARCH_CHILDREN, &value) >= 0, let value else { return nil }
        defer { av_free(value) }
        let text = String(cString: value)
        return text.isEmpty ? nil : text
    }
}
