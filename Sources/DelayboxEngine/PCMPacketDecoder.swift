/// Decodes the packets of a line-in channel: uncompressed 16-bit stereo, interleaved,
/// as `CaptureConverter` records them. No state between packets, no preroll.
public final class PCMPacketDecoder: PacketDecoder {
    public init() {}

    public var prerollPackets: Int { 0 }

    public func decode(
        _ payload: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableBufferPointer<Float>
    ) throws -> Int {
        let frames = min(
            payload.count / (2 * MemoryLayout<Int16>.size), output.count / AudioFormat.channelCount, frameCount)
        for index in 0..<(frames * 2) {
            output[index] =
                Float(Int16(littleEndian: payload.loadUnaligned(fromByteOffset: index * 2, as: Int16.self))) / 32_768
        }
        return frames
    }

    public func reset() {}
}
