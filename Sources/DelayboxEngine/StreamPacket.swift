/// One compressed packet as the stream client hands it over.
public struct StreamPacket: Sendable, Equatable {
    /// The codec's bytes, kept as they are: the delay line stores compressed audio.
    public var payload: [UInt8]
    /// Start of the packet in frames of the internal format, relative to an origin that
    /// is fixed for one connection only (a reconnect restarts timestamps).
    public var connectionTimestamp: Int64
    /// Length of the decoded packet in frames of the internal format.
    public var durationFrames: Int
    /// Audio the client had already received beyond this packet when it handed the packet
    /// over (frames, estimated from the bytes): a demuxer that reads in fixed chunks
    /// (FFmpeg's MP3 reader takes 1 KB at a time, Icecast sends 1400-byte blocks) hands a
    /// packet out well after its bytes came, with newer audio already in. That newer audio
    /// was live by then, which bounds the live edge tighter than the packet itself does.
    public var receivedAheadFrames: Int64
    /// Read in a connection's first seconds, before its reads are batched (`ReadBatching`):
    /// stamped on every TCP segment where later ones are stamped on about two a second. The
    /// least lag of a second's many stamps lies a few ms above that of two, so the station's
    /// clock gives these a line's intercept of their own — as one line with the rest they
    /// read as a rate (a step of a few ms at the tenth second fitted as −400 ppm on a
    /// loopback Icecast, issue 67).
    public var readBeforeBatching = false
    /// Audio before this packet was lost on the way, on the station's own clock: a live
    /// HLS segment left the playlist before it was fetched. The timestamp's jump from the
    /// packet before is that lost audio — a gap where the engine keeps its placement and
    /// says what was lost — not a new origin (an encoder restart's), which is placed anew.
    public var followsLostAudio = false

    public init(payload: [UInt8], connectionTimestamp: Int64, durationFrames: Int, receivedAheadFrames: Int64 = 0) {
        self.payload = payload
        self.connectionTimestamp = connectionTimestamp
        self.durationFrames = durationFrames
        self.receivedAheadFrames = receivedAheadFrames
    }
}

/// Turns stored packets back into audio at playout.
///
/// Implementation requirements: `decode` writes up to `frameCount` interleaved stereo
/// frames of the internal format (`frameCount` is the packet's duration on the timeline,
/// at most `output.count / 2`) and returns how many. A decoder that resamples should
/// deliver exactly `frameCount` in steady state, carrying the rounding remainder to the
/// next packet, so that the audio stays continuous; the engine pads a short result by
/// holding its last frame. `decode` must not allocate in steady state (it runs on the
/// playout path). `reset()` forgets all inter-packet state, as before the first packet
/// of a stream; after a reset the first `prerollPackets` packets may decode imperfectly,
/// so the engine decodes that many extra packets before a seek target and discards them.
/// A corrupt packet throws; the engine plays its duration as silence and goes on.
public protocol PacketDecoder: AnyObject {
    /// Packets to decode and discard after a reset before output is exact.
    var prerollPackets: Int { get }
    /// Decodes one packet; returns the number of frames written.
    func decode(_ payload: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableBufferPointer<Float>)
        throws -> Int
    /// Forgets inter-packet state.
    func reset()
}

/// Creates a fresh decoder; the engine needs two at a time during a crossfade.
public typealias PacketDecoderFactory = () -> any PacketDecoder
