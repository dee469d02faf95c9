// Fuzz target: an ICY byte stream with metadata blocks at any interval, as a SHOUTcast or
// Icecast server (or anyone between it and the box) sends it. The input's first two bytes
// are the interval (`icy-metaint`, 1-65536), the rest the stream: after each interval of
// audio bytes, a length byte (× 16) and that many bytes of metadata. The audio is cut into
// packets whose sizes and demuxer offsets come from the bytes too, placed as the box
// places them (`PacketBytePositions`, `PacketByteMap`), and each block's title is read
// and placed at its byte.
import DelayboxEngine

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard bytes.count >= 2 else { return 0 }
    let interval = Int(bytes[0]) << 8 + Int(bytes[1]) + 1
    var positions = PacketBytePositions()
    var map = PacketByteMap(capacity: 64)
    var index = 2, audioByte: Int64 = 0, timestamp: Int64 = 0
    while index < bytes.count {
        // Audio up to the next block, as packets of the sizes the bytes say.
        let audioEnd = min(bytes.count, index + interval)
        while index < audioEnd {
            let packetSize = Int(bytes[index] & 0x7f) + 1
            // A demuxer's offset: mostly where the packet is, sometimes anything at all.
            let offset =
                bytes[index] & 0x80 != 0 ? Int64(bitPattern: UInt64(bytes[index]) &* 0x9E37_79B9_7F4A_7C15) : audioByte
            let start = positions.place(offset: offset, size: packetSize)
            let frames = Int(bytes[min(index + 1, bytes.count - 1)]) * 9
            map.record(byte: start, byteCount: packetSize, timestamp: timestamp, durationFrames: frames)
            timestamp &+= Int64(frames)
            audioByte += Int64(packetSize)
            index += packetSize
        }
        guard index < bytes.count else { break }
        let blockLength = Int(bytes[index]) * 16
        index += 1
        let block = bytes[min(index, bytes.count)..<min(bytes.count, index + blockLength)]
        index += blockLength
        let metadata = String(decoding: block, as: UTF8.self)
        if let title = StreamEventConvention.streamTitle(fromIcyMetadata: metadata) {
            _ = map.timestamp(atByte: audioByte)
            _ = map.timestamp(atByte: positions.end &- Int64(blockLength))
            _ = StreamEventConvention.read(title: title)
        }
    }
    return 0
}
