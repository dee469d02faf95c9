import DelayboxEngine
import DelayboxFFmpeg
import DelayboxSimulation
import DelayboxTestSupport
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct FFmpegAdapterTests {
    /// Reads every packet of `path` and decodes them in order; returns packets and audio.
    func decodeAll(_ path: String, access: InputAccess = .namedFile) throws -> (
        packets: [StreamPacket], samples: [Float], input: FFmpegInput
    ) {
        let input = try FFmpegInput(url: path, access: access, gate: InterruptGate())
        var packets: [StreamPacket] = []
        while let packet = try input.readPacket() { packets.append(packet) }
        let decoder = try FFmpegDecoder(parameters: input.parameters)
        var samples: [Float] = []
        var buffer = [Float](repeating: 0, count: 16_384 * 2)
        for packet in packets {
            let count = try packet.payload.withUnsafeBytes { payload in
                try buffer.withUnsafeMutableBufferPointer {
                    try decoder.decode(payload, frameCount: packet.durationFrames, into: $0)
                }
            }
            samples.append(contentsOf: buffer[..<(count * 2)])
        }
        return (packets, samples, input)
    }

    /// Sign changes per second of the left channel, over the middle of the signal.
    func zeroCrossingsPerSecond(_ samples: [Float]) -> Double {
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let middle = left[(left.count / 4)..<(3 * left.count / 4)]
        let crossings = zip(middle, middle.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        return Double(crossings) / (Double(middle.count) / 48_000)
    }

    /// Every format the box's FFmpeg is built with (`FormatFixtures`) decodes whole and in
    /// order on this release's build of it.
    @Test(arguments: FormatFixtures.all)
    func decodesToTheInternalFormatContinuously(fixture: FormatFixtures.Fixture) throws {
        let directory = try ExternalTool.temporaryDirectory("adapter")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = try FormatFixtures.make(fixture, in: directory)
        let (packets, samples, _) = try decodeAll(path)
        // Timestamps are contiguous on the internal timeline, from 0.
        #expect(packets.first?.connectionTimestamp == 0)
        for (a, b) in zip(packets, packets.dropFirst()) {
            #expect(abs(b.connectionTimestamp - (a.connectionTimestamp + Int64(a.durationFrames))) <= fixture.slack)
        }
        let total = packets.reduce(0) { $0 + $1.durationFrames }
        #expect(abs(total - 3 * 48_000) < 4_800, "about 3 s of timeline")
        // A 440 Hz tone has 880 zero crossings per second, on both channels (mono duplicated).
        #expect(abs(zeroCrossingsPerSecond(samples) - 880) < 5)
        let leftPeak = stride(from: 0, to: samples.count, by: 2).map { abs(samples[$0]) }.max() ?? 0
        let rightPeak = stride(from: 1, to: samples.count, by: 2).map { abs(samples[$0]) }.max() ?? 0
        #expect(leftPeak > 0.05)
        #expect(abs(rightPeak - leftPeak) < leftPeak * 0.1, "both channels carry the tone")
        // Continuous: no click larger than the tone's own steepest step plus a margin.
        let middle = Array(samples[(samples.count / 4)..<(3 * samples.count / 4)])
        let left = stride(from: 0, to: middle.count, by: 2).map { middle[$0] }
        let peak = left.map(abs).max() ?? 0
        #expect(SignalChecks.largestStep(left) < peak * 2 * Float.pi * 440 / 48_000 * 1.5)
    }

    /// HLS with AES-128 segments (the `crypto` protocol), as a station serves it: over http,
    /// the key beside the playlist. (FFmpeg's HLS demuxer refuses a key file with no media
    /// extension from a local path, so this one is served.)
    @Test func anEncryptedHLSStreamPlaysOverHTTP() throws {
        let directory = try ExternalTool.temporaryDirectory("aes-hls")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data((0..<16).map { UInt8($0 * 7 + 3) }).write(to: directory.appendingPathComponent("key.bin"))
        let keyInfo = directory.appendingPathComponent("keyinfo")
        try "key.bin\n\(directory.path)/key.bin\n0123456789abcdef0123456789abcdef\n".write(
            to: keyInfo, atomically: true, encoding: .utf8)
        try ExternalTool.encodeTone(
            frequency: 440, seconds: 3, sampleRate: 48_000, channels: 2,
            codecArguments: [
                "-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", "-hls_key_info_file", keyInfo.path,
            ],
            to: directory.appendingPathComponent("aes.m3u8").path)
        let playlist = try String(contentsOf: directory.appendingPathComponent("aes.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\""), "\(playlist)")
        let server = try StaticHTTPServer(directory: directory)
        let (packets, samples, _) = try decodeAll(server.url("aes.m3u8"), access: .networkStream)
        #expect(abs(packets.reduce(0) { $0 + $1.durationFrames } - 3 * 48_000) < 4_800, "about 3 s")
        #expect(abs(zeroCrossingsPerSecond(samples) - 880) < 5, "the tone, decrypted")
    }

    @Test func aMissingFileIsAClearError() {
        #expect {
            _ = try FFmpegInput(url: "/nonexistent/stream.mp3", access: .namedFile, gate: InterruptGate())
        } throws: { error in
            (error as? FFmpegError)?.description.contains("No such file") == true
        }
    }

    @Test func garbageIsAClearErrorNotACrash() throws {
        let directory = try ExternalTool.temporaryDirectory("garbage")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("garbage.mp3").path
        var generator = SplitMix64(seed: 42)
        try Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
            to: URL(fileURLWithPath: path))
        let opened = Result { () throws(FFmpegError) in
            try FFmpegInput(url: path, access: .namedFile, gate: InterruptGate())
        }
        guard case .success(let input) = opened else {
            if case .failure(let error) = opened { #expect(!error.message.isEmpty, "refused with FFmpeg's reason") }
            return
        }
        // FFmpeg may find "frames" in noise: each must either decode within its packet's
        // length or fail with a typed error; reading ends at EOF or with a typed error.
        let decoder = try FFmpegDecoder(parameters: input.parameters)
        var buffer = [Float](repeating: 0, count: 16_384 * 2)
        var packets = 0
        do {
            while let packet = try input.readPacket() {
                packets += 1
                do {
                    let count = try packet.payload.withUnsafeBytes { payload in
                        try buffer.withUnsafeMutableBufferPointer {
                            try decoder.decode(payload, frameCount: packet.durationFrames, into: $0)
                        }
                    }
                    #expect(count <= packet.durationFrames)
                } catch {
                    #expect(error is FFmpegError)
                }
            }
        } catch {
            #expect(!error.message.isEmpty, "reading stops with FFmpeg's reason")
        }
        #expect(packets < 50_000 / 24, "no more packets than the noise could hold")
    }
}
