import DelayboxChecked

/// Where the recent packets of a connection sat in its byte stream, so that something
/// found at a byte offset (an ICY metadata block between two reads) can be placed at the
/// stream position of the audio around it.
///
/// A fixed ring of the last `capacity` packets: recording never allocates after the first.
public struct PacketByteMap: Sendable {
    struct Entry: Sendable {
        var byte: Int64
        var byteCount: Int64
        var timestamp: Int64
        var durationFrames: Int64
        /// The byte after the packet (offsets come from the stream: saturated, not trapped).
        var end: Int64 { Checked.sum(byte, byteCount) ?? .max }
    }

    private var entries: [Entry] = []
    private var next = 0
    public let capacity: Int

    /// - Parameter capacity: packets remembered (512 MP3 frames: 13 s).
    public init(capacity: Int = 512) {
        precondition(capacity > 0)
        self.capacity = capacity
        entries.reserveCapacity(capacity)
    }

    public var isEmpty: Bool { entries.isEmpty }

    /// Records that the packet of `byteCount` bytes at `byte` carries the audio from
    /// `timestamp` for `durationFrames` (connection timestamps, frames).
    public mutating func record(byte: Int64, byteCount: Int, timestamp: Int64, durationFrames: Int) {
        let entry = Entry(
            byte: byte, byteCount: Int64(byteCount), timestamp: timestamp, durationFrames: Int64(durationFrames))
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[next] = entry
        }
        next = (next + 1) % capacity
    }

    /// The connection timestamp of the audio at `byte`: inside a packet, in proportion to
    /// its bytes; before the oldest packet remembered, that packet's start; nil when no
    /// packet read so far reaches it (the caller asks again after the next packet).
    public func timestamp(atByte byte: Int64) -> Int64? {
        guard !entries.isEmpty else { return nil }
        let newest = entries[(next + capacity - 1) % capacity]
        guard byte < newest.end else { return nil }
        // The packet holding `byte`; else the first one after it (bytes the demuxer skipped,
        // or older than what is remembered).
        var following = newest
        for entry in entries {
            if entry.byte <= byte && byte < entry.end {
                let into =
                    Checked.difference(byte, entry.byte).flatMap { Checked.product($0, entry.durationFrames) }.map {
                        $0 / max(entry.byteCount, 1)
                    } ?? 0
                return Checked.sum(entry.timestamp, into) ?? entry.timestamp
            }
            if entry.byte > byte && entry.byte < following.byte { following = entry }
        }
        return following.timestamp
    }
}
