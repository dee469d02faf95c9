import DelayboxEngine
import Foundation

/// Writes the internal format to a 16-bit PCM WAV file. The header's sizes are brought up
/// to date on every `flush()`, so the file stays playable if the process is killed.
public final class WavFileWriter {
    public struct OpenFailed: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "cannot create WAV file \(path)" }
    }

    private let handle: FileHandle
    private var dataBytes: UInt32 = 0
    private var pending = Data()

    public init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forUpdatingAtPath: path) else { throw OpenFailed(path: path) }
        self.handle = handle
        try handle.write(contentsOf: header())
    }

    /// Appends interleaved frames, converted to 16 bits with clipping.
    public func write(_ samples: UnsafeBufferPointer<Float>) {
        pending.reserveCapacity(pending.count + samples.count * 2)
        for sample in samples {
            let value = Int16(max(-1, min(1, sample)) * 32_767)
            pending.append(UInt8(truncatingIfNeeded: value))
            pending.append(UInt8(truncatingIfNeeded: value >> 8))
        }
    }

    /// Writes what is pending and updates the header.
    public func flush() throws {
        try handle.seekToEnd()
        try handle.write(contentsOf: pending)
        dataBytes &+= UInt32(pending.count)
        pending.removeAll(keepingCapacity: true)
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: header())
    }

    public func close() throws {
        try flush()
        try handle.close()
    }

    private func header() -> Data {
        var data = Data()
        func append32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        func append16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        let channels = UInt16(AudioFormat.channelCount), rate = UInt32(AudioFormat.sampleRate)
        data.append(contentsOf: Array("RIFF".utf8)); append32(36 &+ dataBytes)
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append32(16); append16(1); append16(channels)
        append32(rate); append32(rate * UInt32(channels) * 2); append16(channels * 2); append16(16)
        data.append(contentsOf: Array("data".utf8)); append32(dataBytes)
        return data
    }
}
