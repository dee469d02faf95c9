import DelayboxEngine
import DelayboxFFmpeg
import DelayboxMixer
import DelayboxTestSupport
import Foundation

/// `mix_cost_vs_decode`: the CPU of mixing four sources (stream, music, ad, feedback: all
/// audible, levels ramping, one panned) for a minute of audio in 20 ms periods, against
/// the CPU of decoding a minute of the 128 kbps MP3 stream to the internal format (what
/// playout does anyway). Target ≤ 0.05.
enum MixCost {
    static func figures() throws {
        let minutes = 5.0
        let decode = try decodeSecondsPerMinute()
        let mix = mixSecondsPerMinute(minutes: minutes)
        print("mix_cpu_s_per_min_4_sources: \(Bench.format(mix))")
        print("decode_cpu_s_per_min_mp3_128k: \(Bench.format(decode))")
        print("mix_cost_vs_decode: \(Bench.format(mix / decode))")
    }

    static func decodeSecondsPerMinute() throws -> Double {
        let directory = try ExternalTool.temporaryDirectory("bench-mix")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("stream.mp3").path
        try ExternalTool.run(["ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                              "sine=frequency=440:sample_rate=44100:duration=60", "-ac", "2", "-b:a", "128k", path])
        let before = Bench.cpuSeconds()
        var frames = 0
        for _ in 0..<3 { frames += try AudioFile.decode(path, maxFrames: 4_000_000).count / AudioFormat.channelCount }
        return (Bench.cpuSeconds() - before) / (Double(frames) / Double(AudioFormat.sampleRate) / 60)
    }

    static func mixSecondsPerMinute(minutes: Double) -> Double {
        let mixer = Mixer(sources: 4)
        let period = 960
        let input = (0..<period * 2).map { Float(sin(Double($0) * 0.01)) * 0.2 }
        var out = [Float](repeating: 0, count: period * 2)
        mixer.setPan(3, 0.5)
        let periods = Int(minutes * 60 * 50)
        let before = Bench.cpuSeconds()
        input.withUnsafeBufferPointer { samples in
            out.withUnsafeMutableBufferPointer { buffer in
                for index in 0..<periods {
                    for source in 0..<4 { mixer.enqueue(source, samples: samples, at: mixer.position) }
                    if index % 50 == 0 { mixer.setLevel(index % 100 == 0 ? 1 : 2, index % 100 == 0 ? 0.3 : 1, rampMs: 500) }
                    mixer.mix(into: buffer.baseAddress!, frames: period)
                }
            }
        }
        return (Bench.cpuSeconds() - before) / minutes
    }
}
