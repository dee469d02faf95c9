import DelayboxEngine
import Glibc

/// A test codec whose decoded audio tells which stream frame it is.
///
/// A packet carries only its first stream frame and its length (plus padding to the
/// size a real codec would use, so memory figures are honest). Decoding synthesises
/// frame m as: left = a 1 kHz sine (48 frames per period, amplitude 0.5) — smooth, so
/// clicks show as large sample steps — and right = 0.25 + (m mod 2^20) / 2^21, exact in
/// Float32, so the stream frame heard at the jack can be read back from any unscaled
/// frame. Silent packets (flag 1) decode to zeros and are byte-identical to each other,
/// like an MP3 encoder's digital silence.
public enum ToneCodec {
    static let magic: [UInt8] = [0x44, 0x54]  // "DT"
    static let headerBytes = 14
    /// Frames after which the right channel's code repeats.
    public static let codePeriod: Int64 = 1 << 20
    @usableFromInline static let sine: [Float] = (0..<48).map { Float(0.5 * sin(2 * Double.pi * Double($0) / 48)) }

    /// A packet of `frames` frames starting at stream frame `firstFrame`, `bytes` long.
    public static func packet(firstFrame: Int64, frames: Int, bytes: Int, silent: Bool = false) -> [UInt8] {
        var payload = [UInt8](repeating: 0, count: max(bytes, headerBytes))
        payload[0] = magic[0]
        payload[1] = magic[1]
        payload[2] = silent ? 1 : 0
        let stamp = silent ? 0 : UInt64(bitPattern: firstFrame)
        for byte in 0..<8 { payload[4 + byte] = UInt8(truncatingIfNeeded: stamp >> (8 * UInt64(byte))) }
        payload[12] = UInt8(truncatingIfNeeded: frames)
        payload[13] = UInt8(truncatingIfNeeded: frames >> 8)
        var noise = stamp &* 0x9E37_79B9_7F4A_7C15 | 1
        for index in headerBytes..<payload.count {
            noise ^= noise << 13
            noise ^= noise >> 7
            noise ^= noise << 17
            payload[index] = silent ? 0 : UInt8(truncatingIfNeeded: noise)
        }
        return payload
    }

    /// Left and right samples of stream frame `frame`.
    @inlinable
    public static func sample(frame: Int64) -> (left: Float, right: Float) {
        sine.withUnsafeBufferPointer { sample(frame: frame, sine: $0) }
    }

    /// Frame `frame` with the sine table in hand: a decoder writes hours of frames, and the
    /// table's lookup per frame (a lazy global's check, a retain) was half of `make check`'s
    /// simulations in a debug build.
    @usableFromInline
    static func sample(frame: Int64, sine: UnsafeBufferPointer<Float>) -> (left: Float, right: Float) {
        (sine[Int(frame % 48)], 0.25 + Float(Int(frame & (codePeriod - 1))) / Float(1 << 21))
    }

    /// Frames `first`, `first + 1`, … of the tone into `output`, interleaved.
    static func write(from first: Int64, frames: Int, into output: UnsafeMutableBufferPointer<Float>) {
        sine.withUnsafeBufferPointer { sine in
            for index in 0..<frames {
                (output[2 * index], output[2 * index + 1]) = sample(frame: first + Int64(index), sine: sine)
            }
        }
    }

    /// The stream frame (modulo `codePeriod`) a right-channel sample encodes, or nil if the
    /// sample is not an exact, unscaled code.
    @inlinable
    public static func code(right: Float) -> Int64? {
        let scaled = (right - 0.25) * Float(1 << 21)
        guard scaled >= 0, scaled < Float(codePeriod), scaled == scaled.rounded() else { return nil }
        return Int64(scaled)
    }
}

/// Decodes `ToneCodec` packets: by default into the test tone with its position code;
/// `synthesis` makes other programmes from the same packets (the demo channel's).
public final class ToneDecoder: PacketDecoder {
    public struct Malformed: Error {}
    /// Left and right samples of a stream frame; nil: the test tone (`ToneCodec.sample`).
    private let synthesis: (@Sendable (Int64) -> (left: Float, right: Float))?

    public init(synthesis: (@Sendable (Int64) -> (left: Float, right: Float))? = nil) {
        self.synthesis = synthesis
    }

    public let prerollPackets = 0

    public func decode(
        _ payload: UnsafeRawBufferPointer, frameCount: Int, into output: UnsafeMutableBufferPointer<Float>
    ) throws -> Int {
        guard payload.count >= ToneCodec.headerBytes, payload[0] == ToneCodec.magic[0], payload[1] == ToneCodec.magic[1]
        else {
            throw Malformed()
        }
        var stamp: UInt64 = 0
        for byte in 0..<8 { stamp |= UInt64(payload[4 + byte]) << (8 * UInt64(byte)) }
        let frames = Int(payload[12]) | Int(payload[13]) << 8
        guard frames * 2 <= output.count else { throw Malformed() }
        if payload[2] == 1 {
            output.baseAddress!.update(repeating: 0, count: frames * 2)
            return frames
        }
        let first = Int64(bitPattern: stamp)
        guard let synthesis else {
            ToneCodec.write(from: first, frames: frames, into: output)
            return frames
        }
        for index in 0..<frames {
            (output[2 * index], output[2 * index + 1]) = synthesis(first + Int64(index))
        }
        return frames
    }

    public func reset() {}
}
