import DelayboxChecked

/// Where each packet's bytes lie in a connection's byte stream, from the offsets the
/// demuxer gives. An MP3 or ADTS frame has an offset of its own; every packet of an Ogg
/// page has the page's, so packets that share an offset follow one another after the
/// page's header, whose size is learnt from the previous page: the bytes between its last
/// packet and where the next page began.
///
/// What is read but not yet played out is measured from `end`; counted from the page's
/// offset instead, each packet of a one-second page would have a second of audio ahead.
public struct PacketBytePositions: Sendable {
    /// Offset of the container unit (frame or page) the last packet belonged to; -1 before any.
    private var unitOffset: Int64 = -1
    /// Bytes before the first packet of a unit (Ogg: 27 plus one per 255 bytes of lacing).
    private var headerBytes: Int64 = 0
    /// The byte after the last packet placed.
    public private(set) var end: Int64 = 0

    public init() {}

    /// Places a packet of `size` bytes that the demuxer says is at `offset` (its own, or
    /// its unit's); returns its first byte.
    public mutating func place(offset: Int64, size: Int) -> Int64 {
        if offset != unitOffset {
            // Where this unit begins shows how long the previous unit's header was. A gap in
            // a frame-per-offset stream (a junk byte, a tag) corrects itself at the next frame.
            // Offsets come from the stream's bytes (an MP4's index says what it likes):
            // arithmetic that would overflow places the packet at its offset.
            if unitOffset >= 0 {
                headerBytes = max(0, Checked.difference(offset, end).flatMap { Checked.sum(headerBytes, $0) } ?? 0)
            }
            unitOffset = offset
            end = Checked.sum(offset, headerBytes) ?? offset
        }
        let start = end
        end = Checked.sum(end, Int64(size)) ?? end
        return start
    }
}
