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

    /// A file of marks `seconds` long (the pitch names the second, mod 40) in `directory`,
    /// and where each mark starts in the decoded stream (the same decoder the box uses).
    /// MP3: 48 kHz CBR 128 kbps, every frame 384 bytes, 1152 samples (24 ms); no Xing
    /// frame, so the file's frames are exactly the stream's. Opus: one-second pages.
    static func marks(seconds: Int, opus: Bool = false, in directory: URL) throws -> (path: String, starts: [Int]) {
        let path = directory.appendingPathComponent(opus ? "marks.opus" : "marks.mp3").path
        let codec =
            opus
            ? ["-c:a", "libopus", "-b:a", "128k", "-page_duration", "1000000", "-f", "ogg"]
            : ["-c:a", "libmp3lame", "-b:a", "128k", "-write_xing", "0", "-id3v2_version", "0", "-f", "mp3"]
        try ExternalTool.run(
            [
                "ffmpeg", "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i",
                "aevalsrc=0.5*sin(2*PI*(1000+100*mod(floor(t)\\,40))*t)*lt(mod(t\\,1)\\,0.02):s=48000:d=\(seconds)",
                "-ac", "2",
            ]
                + codec + [path])
        let reference = try AudioFile.decode(path, maxFrames: 48_000 * (seconds + 10))
        return (path, onsets(stride(from: 0, to: reference.count, by: 2).map { reference[$0] }))
    }

    /// When a `delaybox play` run's first output frame was heard (CLOCK_MONOTONIC, s).
    static func anchor(of lines: [PlayLine]) throws -> Double {
        let text = try #require(
            lines.lines("info").compactMap { $0.text }
                .first { $0.hasPrefix("audio output: its first frame heard at monotonic ") })
        return try #require(Double(text.split(separator: " ")[8]))
    }

    /// Each mark a `delaybox play` run wrote to `wav` against when it was live (sample s of
    /// a paced source started at `t0`, its clock `ppm` off, was live at
    /// t0 + (s + 1) / (48 000 · (1 + ppm/10⁶))): seconds after the output's first frame, and
    /// the heard delay minus `delay` (ms). A heard mark is the stream's nearest to where
    /// `delay` puts it, and must name the same second.
    /// `from`: marks heard before this (s into the output) are left out.
    static func heardErrors(
        of lines: [PlayLine], wav: String, marks: [Int], t0: Double, delay: Double, ppm: Double = 0, from: Double = 0
    ) throws -> [(at: Double, ms: Double)] {
        try heardErrors(
            anchor: anchor(of: lines), wav: wav, marks: marks, t0: t0, delay: delay, ppm: ppm, from: from)
    }

    /// The same for an output whose first frame was heard at `anchor` (CLOCK_MONOTONIC, s).
    static func heardErrors(
        anchor: Double, wav: String, marks: [Int], t0: Double, delay: Double, ppm: Double = 0, from: Double = 0
    ) throws -> [(at: Double, ms: Double)] {
        let samples = try WavCapture.stereoSamples(path: wav)
        let left = stride(from: 0, to: samples.count, by: 2).map { Float(samples[$0]) / 32_767 }
        let streamRate = 48_000 * (1 + ppm / 1e6)
        return try onsets(left).filter { Double($0) / 48_000 >= from }.map { frame in
            let heard = anchor + Double(frame) / 48_000
            let expected = (heard - delay - t0) * streamRate
            let mark = try #require(marks.min { abs(Double($0) - expected) < abs(Double($1) - expected) })
            #expect(
                second(ofMarkAt: frame, in: left) == (mark / 48_000) % 40,
                "the mark heard at \(frame) names the second of the stream's at \(mark)")
            return (Double(frame) / 48_000, (heard - (t0 + Double(mark + 1) / streamRate) - delay) * 1_000)
        }
    }

    /// MP3 arrives frame by frame (24 ms); Ogg/Opus as FFmpeg muxes it, a page a second,
    /// so the box must tell from the bytes it has read how much of a page is still ahead
    /// of each packet (counted wrongly, Opus was heard about a second less delayed).
    @Test(arguments: [false, true])
    func theHeardDelayIsTheSetOneWithinFiveMilliseconds(opus: Bool) throws {
        let directory = try ExternalTool.temporaryDirectory("heard-delay")
        defer { try? FileManager.default.removeItem(at: directory) }
        let marks = try Self.marks(seconds: 40, opus: opus, in: directory)
        #expect(marks.starts.count >= 38)
        let server = try IcecastServer()
        let mount = opus ? "/marks.opus" : "/marks.mp3"
        let t0 = try server.startPacedSource(
            mount: mount, file: marks.path,
            format: opus ? .oggOpus : .mp3(frameBytes: 384, frameSeconds: 0.024))
        // Not a warm-up but the phase these bounds were measured at (issue 67): an Opus box's
        // first seconds depend on when it connects against the station's one-second pages.
        // Started 6 s after the source (as always), its first mark is within 10 ms from 2.5 s;
        // started as the burst fills (5.0 s) or at 6.25 s, it starts 220 ms off and is within
        // 10 ms only from 3.6 s (2 runs in 3 and 4 in 4, 2026-12-01). Settled, all are within
        // 1 ms. To be put right in the box, not here.
        Thread.sleep(forTimeInterval: 6)
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
        let errors = try Self.heardErrors(of: run.lines, wav: wav, marks: marks.starts, t0: t0, delay: delay)
        #expect(errors.count >= 8, "\(errors.count) marks heard")
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

    /// Issue 58: what the output adds after the device that ALSA cannot see (a Bluetooth
    /// speaker's buffer) is counted in the heard delay: two boxes on one stream, one told its
    /// output adds 200 ms, play each mark 200 ms apart, within a millisecond.
    @Test func anOutputsOwnLatencyIsPlayedThatMuchEarlier() throws {
        let directory = try ExternalTool.temporaryDirectory("output-latency")
        defer { try? FileManager.default.removeItem(at: directory) }
        let marks = try Self.marks(seconds: 40, in: directory)
        let server = try IcecastServer()
        let t0 = try server.startPacedSource(
            mount: "/marks.mp3", file: marks.path, format: .mp3(frameBytes: 384, frameSeconds: 0.024))
        try server.waitForBurst(mount: "/marks.mp3")
        let delay = 3.0
        let latencies = [0.0, 0.2]
        let runs = try latencies.map { latency in
            try PlayRun(
                root: Self.root,
                arguments: [
                    server.url(mount: "/marks.mp3"), "--delay", "\(delay)", "--for", "14", "--output-latency",
                    "\(latency)", "--output", "wav:\(directory.appendingPathComponent("\(latency).wav").path)",
                ])
        }
        let errors = try zip(latencies, runs).map { latency, run in
            let outcome = run.finish()
            #expect(outcome.status == 0)
            return try Self.heardErrors(
                of: outcome.lines, wav: directory.appendingPathComponent("\(latency).wav").path, marks: marks.starts,
                t0: t0, delay: delay
            ).filter { $0.at >= 6.5 }
        }
        let plain = errors[0].map(\.ms), early = errors[1].map(\.ms)
        #expect(plain.count >= 6 && early.count >= 6, "\(plain), \(early)")
        let moved = plain.reduce(0, +) / Double(plain.count) - early.reduce(0, +) / Double(early.count)
        print("output latency 200 ms: marks heard \(moved) ms earlier")
        #expect(abs(moved - 200) <= 1, "heard \(moved) ms earlier: \(plain) and \(early)")
    }
}
