import DelayboxConfig
import DelayboxFFmpeg
import DelayboxTestSupport
import Foundation
import Testing

/// The delay at the output, in real time, end to end: a live Icecast stream whose audio
/// carries time marks (a 20 ms burst each second, its pitch naming the second: 1000 Hz +
/// 100 Hz per second, so a delay wrong by whole seconds is seen), sent by a paced source that
/// knows when every sample was live, played by `delaybox play` at real time into a WAV
/// file whose first frame's time the output reports (its pacing clock: the WAV's "DAC").
/// Each mark heard at the output is compared with when it was live: once the connection's
/// placement has settled, the heard delay is the set one within 5 ms (measured 0.6 ms).
@Suite(.serialized, .timeLimit(.minutes(10))) struct HeardDelayTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// First frame of each mark: where the left channel first exceeds 0.1 after a second
    /// of quiet below it.
    static func onsets(_ left: [Float]) -> [Int] {
        var result: [Int] = []
        var quietSince = 0
        for (frame, value) in left.enumerated() {
            if abs(value) > 0.1 {
                if frame - quietSince > 24_000 { result.append(frame) }
                quietSince = frame
            }
        }
        return result
    }

    /// Which second's mark starts at `frame`: the pitch (1000 + 100·n Hz, n < 40) strongest
    /// over its first 15 ms.
    static func second(ofMarkAt frame: Int, in left: [Float]) -> Int {
        let window = left[frame..<min(frame + 720, left.count)]
        func power(_ hertz: Double) -> Double {
            let coefficient = 2 * cos(2 * Double.pi * hertz / 48_000)
            var (previous, beforePrevious) = (0.0, 0.0)
            for value in window {
                (beforePrevious, previous) = (previous, Double(value) + coefficient * previous - beforePrevious)
            }
            return previous * previous + beforePrevious * beforePrevious - coefficient * previous * beforePrevious
        }
        return (0..<40).max { power(1_000 + 100 * Double($0)) < power(1_000 + 100 * Double($1)) }!
    }

    /// MP3 arrives frame by frame (24 ms); Ogg/Opus as FFmpeg muxes it, a page a second,
    /// so the box must tell from the bytes it has read how much of a page is still ahead
    /// of each packet (counted wrongly, Opus was heard about a second less delayed).
    @Test(arguments: [false, true])
    func theHeardDelayIsTheSetOneWithinFiveMilliseconds(opus: Bool) throws {
        let directory = try ExternalTool.temporaryDirectory("heard-delay")
        defer { try? FileManager.default.removeItem(at: directory) }
        // MP3: 48 kHz CBR 128 kbps, every frame 384 bytes, 1152 samples (24 ms); no Xing
        // frame, so the file's frames are exactly the stream's. Opus: one-second pages.
        let mount = opus ? "/marks.opus" : "/marks.mp3"
        let marks = directory.appendingPathComponent(mount).path
        let codec =
            opus
            ? ["-c:a", "libopus", "-b:a", "128k", "-page_duration", "1000000", "-f", "ogg"]
            : ["-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"]
        try ExternalTool.run(
            [
                "ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                "aevalsrc=0.5*sin(2*PI*(1000+100*floor(t))*t)*lt(mod(t\\,1)\\,0.02):s=48000:d=40", "-ac", "2",
            ]
                + codec + [marks])
        // Where each mark starts in the decoded stream (the same decoder the box uses).
        let reference = try AudioFile.decode(marks, maxFrames: 48_000 * 60)
        let referenceLeft = stride(from: 0, to: reference.count, by: 2).map { reference[$0] }
        let streamMarks = Self.onsets(referenceLeft)
        #expect(streamMarks.count >= 38)
        // Where the mark of each second starts in the stream (frames).
        let markOfSecond = Dictionary(streamMarks.map { (Self.second(ofMarkAt: $0, in: referenceLeft), $0) }) {
            first, _ in first
        }
        #expect(
            markOfSecond.count == streamMarks.count, "every mark names its own second: \(markOfSecond.keys.sorted())")

        let server = try IcecastServer()
        let t0 = try server.startPacedSource(
            mount: mount, file: marks,
            format: opus ? .oggOpus : .mp3(frameBytes: 384, frameSeconds: 0.024))
        Thread.sleep(forTimeInterval: 6)  // the server holds a burst; the stream is well under way
        let wav = directory.appendingPathComponent("out.wav").path
        let delay = 3.0
        let run = try PlayRun(
            root: Self.root,
            arguments: [
                server.url(mount: mount), "--delay", "\(delay)", "--for", "14",
                "--output", "wav:\(wav)",
            ]
        ).finish()
        #expect(run.status == 0)
        let anchorText = try #require(
            run.lines.lines("info").compactMap { $0.text }
                .first { $0.hasPrefix("audio output: its first frame heard at monotonic ") })
        let anchor = try #require(Double(anchorText.split(separator: " ")[8]))

        let samples = try WavCapture.stereoSamples(path: wav)
        let heardLeft = stride(from: 0, to: samples.count, by: 2).map { Float(samples[$0]) / 32_767 }
        let heardMarks = Self.onsets(heardLeft)
        #expect(heardMarks.count >= 8, "\(heardMarks.count) marks heard")
        // (seconds after the output's first frame, heard delay minus set delay in ms)
        var errors: [(at: Double, ms: Double)] = []
        for frame in heardMarks {
            let heard = anchor + Double(frame) / 48_000
            // When the same second's mark was live: sample s was live at t0 + (s + 1) / 48 000.
            let second = Self.second(ofMarkAt: frame, in: heardLeft)
            let mark = try #require(
                markOfSecond[second], "the mark of second \(second) heard at \(frame) is in the stream")
            let live = t0 + Double(mark + 1) / 48_000
            errors.append((Double(frame) / 48_000, (heard - live - delay) * 1_000))
        }
        let listed = errors.map { String(format: "%.1f s: %.2f", $0.at, $0.ms) }
        // Once the connection's placement has settled (5 s after its first packet, then at
        // most a crossfade): within 5 ms. Before, once the first correction is made (an
        // error beyond 10 ms is jumped away within about a second): within 10.
        let settled = errors.filter { $0.at >= 6.5 }
        #expect(settled.count >= 6, "\(listed)")
        #expect(settled.allSatisfy { abs($0.ms) <= 5 }, "heard delay minus set delay per mark (ms): \(listed)")
        #expect(
            errors.filter { $0.at >= 2.5 }.allSatisfy { abs($0.ms) <= 10 },
            "heard delay minus set delay per mark (ms): \(listed)")
        print("heard delay minus set delay per mark (ms), \(opus ? "Opus" : "MP3"): \(listed)")
    }
}
