import DelayboxEngine
import DelayboxFFmpeg
import DelayboxSimulation
import DelayboxTestSupport
import Foundation
import Testing

@Suite(.timeLimit(.minutes(10))) struct FFmpegAdapterTests {
    /// Reads every packet of `path` and decodes them in order; returns packets and audio.
    func decodeAll(_ path: String) throws -> (packets: [StreamPacket], samples: [Float], input: FFmpegInput) {
        let input = try FFmpegInput(url: path, access: .namedFile, gate: InterruptGate())
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

    /// Every container and decoder the box's FFmpeg is built with (tools/ffmpeg/components),
    /// each as a station would send it, made here by the system's ffmpeg. HE-AAC is the aac
    /// decoder's too; Debian's ffmpeg has no encoder to make it with. `slack`: how far (frames)
    /// a packet's timestamp may stray from the end of the one before — Matroska's are whole
    /// milliseconds, and ffmpeg's HLS muxer leaves a packet's gap where a segment begins.
    static let formats: [(file: String, codec: [String], rate: Int, channels: Int, slack: Int)] = [
        ("tone.mp3", ["-c:a", "libmp3lame", "-b:a", "128k"], 44_100, 2, 0),
        ("tone.mp2", ["-c:a", "mp2", "-b:a", "192k"], 48_000, 2, 0),
        ("tone.aac", ["-c:a", "aac", "-b:a", "128k", "-f", "adts"], 44_100, 1, 0),
        ("opus.ogg", ["-c:a", "libopus", "-b:a", "96k"], 48_000, 2, 0),
        ("vorbis.ogg", ["-c:a", "libvorbis"], 44_100, 2, 0),
        ("flac.oga", ["-c:a", "flac", "-f", "ogg"], 44_100, 2, 0),
        ("tone.flac", ["-c:a", "flac"], 48_000, 2, 0),
        ("s16.wav", ["-c:a", "pcm_s16le"], 44_100, 2, 0),
        ("s24.wav", ["-c:a", "pcm_s24le"], 48_000, 2, 0),
        ("s32.wav", ["-c:a", "pcm_s32le"], 48_000, 1, 0),
        ("f32.wav", ["-c:a", "pcm_f32le"], 48_000, 2, 0),
        ("opus.webm", ["-c:a", "libopus"], 48_000, 2, 48),
        ("vorbis.mka", ["-c:a", "libvorbis"], 44_100, 2, 48),
        ("aac.m4a", ["-c:a", "aac"], 44_100, 2, 0),
        ("fragmented.mp4", ["-c:a", "aac", "-movflags", "frag_keyframe+empty_moov+default_base_moof", "-frag_duration", "1000000"], 48_000, 2, 0),
        ("aac.ts", ["-c:a", "aac", "-f", "mpegts"], 48_000, 2, 0),
        ("mp2.ts", ["-c:a", "mp2", "-f", "mpegts"], 48_000, 2, 0),
        ("latm.ts", ["-c:a", "aac", "-f", "mpegts", "-mpegts_flags", "latm"], 48_000, 2, 0),
        ("ts.m3u8", ["-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0"], 48_000, 2, 2_048),
        ("fmp4.m3u8", ["-c:a", "aac", "-f", "hls", "-hls_time", "1", "-hls_list_size", "0", "-hls_segment_type", "fmp4"], 48_000, 2, 0),
    ]

    @Test(arguments: formats)
    func decodesToTheInternalFormatContinuously(file: String, codec: [String], rate: Int, channels: Int, slack: Int) throws {
        let directory = try ExternalTool.temporaryDirectory("adapter")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(file).path
        try ExternalTool.encodeTone(frequency: 440, seconds: 3, sampleRate: rate, channels: channels, codecArguments: codec, to: path)
        let (packets, samples, _) = try decodeAll(path)
        // Timestamps are contiguous on the internal timeline, from 0.
        #expect(packets.first?.connectionTimestamp == 0)
        for (a, b) in zip(packets, packets.dropFirst()) {
            #expect(abs(b.connectionTimestamp - (a.connectionTimestamp + Int64(a.durationFrames))) <= slack)
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
        try Data((0..<50_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: path))
        let opened = Result { () throws(FFmpegError) in try FFmpegInput(url: path, access: .namedFile, gate: InterruptGate()) }
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
