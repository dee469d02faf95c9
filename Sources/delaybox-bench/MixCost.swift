import DelayboxEngine
import DelayboxFFmpeg
import DelayboxMixer
import DelayboxTestSupport
import Foundation

/// `mix_cost_vs_decode`: the CPU of mixing four sources (stream, music, ad, feedback: all
/// audible, levels ramping, one panned; the stream mixed in place where the engine
/// rendered it, as `ProgrammeMix` does) for a minute of audio in 20 ms periods, against
/// the CPU of decoding a minute of the 128 kbps MP3 stream to the internal format (what
/// playout does anyway). Each the fastest of five runs. Target ≤ 0.05.
enum MixCost {
    /// - Parameter minutes: of audio mixed for the figure.
    static func figures(minutes: Double = 5) throws {
        let decode = try decodeSecondsPerMinute()
        let mix = (0..<5).map { _ in mixSecondsPerMinute(minutes: minutes / 5) }.min() ?? 0
        print("mix_cpu_s_per_min_4_sources: \(String(format: "%.4f", mix))")
        print("decode_cpu_s_per_min_mp3_128k: \(Bench.format(decode))")
        print("mix_cost_vs_decode: \(Bench.format(mix / decode))")
    }

    static func decodeSecondsPerMinute() throws -> Double {
        let directory = try ExternalTool.temporaryDirectory("bench-mix")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("stream.mp3").path
        try ExternalTool.run([
            "ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
            "sine=frequency=440:sample_rate=44100:duration=60", "-ac", "2", "-b:a", "128k", path,
        ])
        // The fastest of five: the least disturbed by the rest of the machine.
        return try (0..<5).map { _ in
            let before = Bench.cpuSeconds()
            let frames = try AudioFile.decode(path, maxFrames: 4_000_000).count / AudioFormat.channelCount
            return (Bench.cpuSeconds() - before) / (Double(frames) / Double(AudioFormat.sampleRate) / 60)
        }.min() ?? 0
    }

    static func mixSecondsPerMinute(minutes: Double) -> Double {
        let mixer = Mixer(sources: 4, capacityFrames: ProgrammeMix.queueFrames)
        let period = 960
        let input = (0..<period * 2).map { Float(sin(Double($0) * 0.01)) * 0.2 }
        var out = [Float](repeating: 0, count: period * 2)
        mixer.setPan(3, 0.5)
        let periods = Int(minutes * 60 * 50)
        let before = Bench.cpuSeconds()
        input.withUnsafeBufferPointer { samples in
            out.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<periods {
                    // As in the appliance: the stream where the engine rendered it (copied
                    // here in its place, and counted), the other three queued.
                    buffer.baseAddress!.update(from: samples.baseAddress!, count: samples.count)
                    for source in 1..<4 { mixer.enqueue(source, samples: samples, at: mixer.position) }
                    if index % 50 == 0 {
                        mixer.setLevel(index % 100 == 0 ? 1 : 2, index % 100 == 0 ? 0.3 : 1, over: .milliseconds(500))
                    }
                    mixer.mix(into: buffer.baseAddress!, frames: period, inPlace: 0)
                }
            }
        }
        return (Bench.cpuSeconds() - before) / minutes
    }
}
