import DelayboxEngine
import DelayboxSystem
import Glibc

/// Writes the internal format to a 16-bit PCM WAV file. The header's sizes are brought up
/// to date on every `flush()`, so the file stays playable if the process is killed.
public final class WavFileWriter: FrameFile {
    public struct OpenFailed: Error, CustomStringConvertible {
        public var path: String
        /// The system's word for it ("Permission denied").
        public var reason: String
        public var description: String { "cannot create WAV file \(path): \(reason)" }
    }

    /// Writing to the file failed; `reason` is the system's word for it ("File too large").
    public struct WriteFailed: Error, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    private let path: String
    private let file: FileDescriptor
    private var dataBytes: UInt32 = 0
    private var pending: [UInt8] = []

    /// - Parameter appending: keep the audio an earlier writer left in the file (its
    ///   header says how much) and add to it; without it, or without such a file, the
    ///   file starts empty.
    public init(path: String, appending: Bool = false) throws {
        self.path = path
        if appending, let existing = try? FileDescriptor.open(path, O_RDWR) {
            var header = [UInt8](repeating: 0, count: 44)
            if (try? existing.read(into: &header, at: 0)) == 44, header.starts(with: Array("RIFF".utf8)) {
                file = existing
                dataBytes = header[40..<44].reversed().reduce(0) { $0 << 8 | UInt32($1) }
                return
            }
        }
        do {
            file = try FileDescriptor.open(path, O_RDWR | O_CREAT | O_TRUNC, permissions: 0o644)
        } catch {
            throw OpenFailed(path: path, reason: error.description)
        }
        do {
            try file.writeAll(header(), at: 0)
        } catch {
            throw WriteFailed(path: path, reason: "\(error)")
        }
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

    /// Writes what is pending and brings the header's two sizes up to date. By `pwrite`,
    /// allocating nothing: it runs for every period on the output's thread.
    public func flush() throws(WriteFailed) {
        let total = dataBytes &+ UInt32(pending.count)
        do {
            try file.writeAll(pending, at: 44 + Int(dataBytes))
            // The RIFF chunk's size (at byte 4) and the data chunk's (at byte 40).
            try file.writeAll(littleEndian: 36 &+ total, at: 4)
            try file.writeAll(littleEndian: total, at: 40)
        } catch {
            throw WriteFailed(path: path, reason: "\(error)")
        }
        dataBytes &+= UInt32(pending.count)
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes what is pending; the file itself is closed when the writer goes.
    public func close() throws {
        try flush()
    }

    private func header() -> [UInt8] {
        var data: [UInt8] = []
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
