/// One stored packet: where it lies on the timeline and where its bytes are.
/// 24 bytes, so the index adds about 6 % to a 128 kbps stream of 24 ms packets.
struct PacketEntry: BitwiseCopyable, Equatable {
    /// Timeline position of the packet's first frame.
    var position: Int64
    /// Sequence number of the payload's first byte in the payload ring.
    var payloadSequence: Int64
    /// FNV-1a hash of the payload (folded to 32 bits), to find resent packets quickly;
    /// candidates are then compared byte for byte.
    var hash: UInt32
    var payloadLength: UInt16
    var durationFrames: UInt16

    var end: Int64 { position + Int64(durationFrames) }
}

/// The delay buffer: compressed packets in timeline order, with their positions.
///
/// Packets stay compressed (a 128 kbps stream costs about 0.96 MB per minute) and are
/// decoded only at playout; an index entry per packet gives its timeline position, so
/// any delay can be found by binary search. Positions only grow: a packet is appended at
/// or after the end of the one before, and the space between two packets that are not
/// contiguous is audio that was lost.
final class DelayLine {
    /// Largest payload accepted, in bytes; one payload chunk holds at least one packet.
    static let maximumPayloadBytes = Int(UInt16.max)
    /// Packets closer than this (in frames) count as contiguous: decoders that resample
    /// may round a packet's length by a frame.
    static let contiguityToleranceFrames: Int64 = 48

    private let entries = ChunkedRing<PacketEntry>(chunkCapacity: 1_024)
    private let payloads = ChunkedRing<UInt8>(chunkCapacity: 65_536)

    var isEmpty: Bool { entries.count == 0 }
    /// Sequence number of the oldest held packet.
    var firstSequence: Int64 { entries.firstSequence }
    /// Sequence number the next appended packet gets.
    var endSequence: Int64 { entries.endSequence }
    /// Timeline position of the oldest held frame (0 when empty).
    var startPosition: Int64 { isEmpty ? 0 : entries[entries.firstSequence].position }
    /// Timeline position just after the newest held frame (0 when empty).
    var endPosition: Int64 { isEmpty ? 0 : entries[entries.endSequence - 1].end }
    /// Bytes allocated for payloads and index.
    var allocatedBytes: Int { entries.allocatedBytes + payloads.allocatedBytes }

    subscript(sequence: Int64) -> PacketEntry { entries[sequence] }

    /// FNV-1a, 64 bit: fast, and good enough to pre-select candidates that are then
    /// compared byte for byte.
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
    }

    /// Appends a packet at `position`, which must not lie before `endPosition` by more
    /// than the contiguity tolerance; returns its sequence number.
    @discardableResult
    func append(_ payload: [UInt8], durationFrames: Int, at position: Int64) -> Int64 {
        precondition(
            payload.count <= Self.maximumPayloadBytes && durationFrames > 0 && durationFrames <= Int(UInt16.max))
        precondition(isEmpty || position >= endPosition - Self.contiguityToleranceFrames)
        return payload.withUnsafeBufferPointer { bytes in
            let payloadSequence = payloads.appendContiguous(bytes)
            return entries.append(
                PacketEntry(
                    position: position, payloadSequence: payloadSequence,
                    hash: Self.hash(UnsafeRawBufferPointer(bytes)),
                    payloadLength: UInt16(payload.count), durationFrames: UInt16(durationFrames)))
        }
    }

    /// The bytes of a held packet; valid until the packet is dropped.
    func payload(of entry: PacketEntry) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(payloads.contiguous(from: entry.payloadSequence, length: Int(entry.payloadLength)))
    }

    /// Whether the packet at `sequence` holds exactly `payload` (whose hash is `hash`);
    /// with `inFull` false, whether its length and hash are the same.
    func matches(_ sequence: Int64, payload: [UInt8], hash: UInt32, inFull: Bool = true) -> Bool {
        let entry = entries[sequence]
        guard entry.hash == hash, Int(entry.payloadLength) == payload.count else { return false }
        return !inFull || payload.withUnsafeBytes { $0.elementsEqual(self.payload(of: entry)) }
    }

    /// The newest packet whose position is at or before `position`, if any.
    func lastSequence(atOrBefore position: Int64) -> Int64? {
        guard !isEmpty, entries[firstSequence].position <= position else { return nil }
        var low = firstSequence, high = endSequence - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if entries[middle].position <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The packet holding the frame at `position`, if any.
    func sequence(containing position: Int64) -> Int64? {
        guard let sequence = lastSequence(atOrBefore: position), entries[sequence].end > position else { return nil }
        return sequence
    }

    /// Whether the packet at `sequence` follows the one before it without a gap.
    func continuesPrevious(_ sequence: Int64) -> Bool {
        guard sequence > firstSequence else { return false }
        return entries[sequence].position - entries[sequence - 1].end <= Self.contiguityToleranceFrames
    }

    /// Moves the packets from `sequence` on by `delta` frames (a connection's placement
    /// was refined before it settled).
    func shiftPositions(from sequence: Int64, by delta: Int64) {
        var current = max(sequence, firstSequence)
        while current < endSequence {
            entries[current].position += delta
            current += 1
        }
    }

    /// Drops every packet that ends at or before `position`.
    func dropPackets(endingBy position: Int64) {
        var keep = firstSequence
        while keep < endSequence, entries[keep].end <= position { keep += 1 }
        guard keep > firstSequence else { return }
        if keep < endSequence {
            payloads.removeAll(before: entries[keep].payloadSequence)
        } else {
            payloads.removeAll(before: payloads.endSequence)
        }
        entries.removeAll(before: keep)
    }
}
