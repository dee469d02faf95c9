import DelayboxConfig
import DelayboxFFmpeg
import DelayboxTestSupport
import Foundation
import Testing

/// Issue 58 in real time: a station whose encoder runs 500 ppm fast, and one 500 ppm slow
/// (paced sources on a real Icecast), each played by `delaybox play` at a 3 s delay into a
/// WAV file and heard against this machine's clock, mark by mark (`HeardDelayTests`' marks:
/// a 20 ms burst a second, its pitch naming the second). Before the box followed the
/// station's clock, the heard delay slid by all of it: 29.9 ms a minute (as the issue
/// measured with `ffmpeg -readrate 1.0005`), 100 ms by the third minute.
///
/// The fast station is also played as HLS (issue 67): ffmpeg, reading the marks 500 ppm fast
/// (`-readrate`), cuts them into 6 s segments served over HTTP — a packager fed by its
/// encoder — and the box, fetching each as it is listed, follows the station's clock through
/// them (FFmpeg's demuxer, reloading on its own schedule, hid it: the delay slid 30 ms a
/// minute).
@Suite(.serialized, .timeLimit(.minutes(10))) struct StationClockOnAirTests {
    static let root = HeardDelayTests.root

    @Test func theHeardDelayHoldsAgainstAStationsClockOnAir() throws {
        let directory = try ExternalTool.temporaryDirectory("station-clock")
        defer { try? FileManager.default.removeItem(at: directory) }
        let marks = try HeardDelayTests.marks(seconds: 315, in: directory)
        #expect(marks.starts.count >= 313)
        let server = try IcecastServer()
        let stations = [500.0, -500.0]
        let starts = try stations.map { ppm in
            try server.startPacedSource(
                mount: "/\(Int(ppm)).mp3", file: marks.path, format: .mp3(frameBytes: 384, frameSeconds: 0.024),
                clockPpm: ppm)
        }
        let segments = directory.appendingPathComponent("hls")
        try FileManager.default.createDirectory(at: segments, withIntermediateDirectories: true)
        // Not cut from the Icecast stream: a listener of Icecast gets the source's bytes in
        // bursts, and the segments were then listed up to 180 ms apart from their audio's
        // pace — a path's jitter, not the station's clock, which a point a segment cannot
        // see through in minutes.
        let packagerStart = ProcessInfo.processInfo.systemUptime
        let packager = try ExternalTool.spawn([
            "ffmpeg", "-nostdin", "-loglevel", "error", "-readrate", "1.0005", "-i", marks.path, "-c", "copy", "-f",
            "hls", "-hls_time", "6", "-hls_list_size", "6", "-hls_flags", "delete_segments",
            segments.appendingPathComponent("live.m3u8").path,
        ])
        defer { packager.kill() }
        let web = try StaticHTTPServer(directory: segments)
        for ppm in stations { try server.waitForBurst(mount: "/\(Int(ppm)).mp3") }
        #expect(
            Eventually.holds(within: 15) {
                FileManager.default.fileExists(atPath: segments.appendingPathComponent("live.m3u8").path)
            }, "the first segment listed")
        let delay = 3.0
        let urls = stations.map { server.url(mount: "/\(Int($0)).mp3") } + [web.url("live.m3u8")]
        let runs = try urls.enumerated().map { index, url in
            try PlayRun(
                root: Self.root,
                arguments: [
                    url, "--delay", "\(index < stations.count ? delay : Self.hlsDelay)", "--for", "300",
                    "--output", "wav:\(directory.appendingPathComponent("\(index).wav").path)",
                ])
        }
        let hls = runs[stations.count].finish()
        for (index, run) in runs.prefix(stations.count).enumerated() {
            let ppm = stations[index]
            let outcome = run.finish()
            #expect(outcome.status == 0)
            let told = outcome.lines.lines("station_clock").compactMap(\.ppm)
            #expect(told.count == 1 && abs(told[0] - ppm) < 50, "the log says the station's clock once: \(told)")
            let errors = try HeardDelayTests.heardErrors(
                of: outcome.lines, wav: directory.appendingPathComponent("\(index).wav").path,
                marks: marks.starts, t0: starts[index], delay: delay, ppm: ppm)
            // Once the box has followed the station's clock for 40 s: it first follows within
            // 10-30 s (issue 67; 140 s before), and its line then settles by a few ms as the
            // rate fitted through the first placement's live firms up (a loaded machine's run:
            // +500 ppm 12.8 ms at 30 s, 8.8 at 40 s, 4.1-4.6 from 140 s on).
            let toldAt = outcome.lines.lines("station_clock").compactMap(\.t).first ?? 150
            let from = max(150, toldAt + 40)
            let late = errors.filter { $0.at >= from }
            // Each mark is heard within ±0.7 ms of the line: over a minute of them the slope
            // alone scatters by ~0.5 ms a minute; over the ~two minutes here, by ~0.2.
            #expect(late.count >= 100, "\(late.count) marks heard after \(from) s")
            let listed = errors.filter { Int($0.at) % 10 == 0 }.map { String(format: "%.0f s: %.1f", $0.at, $0.ms) }
            let slope = Self.slopePerMinute(late)
            print("station at \(ppm) ppm: heard delay minus set (ms) \(listed); after \(from) s \(slope) ms a minute")
            #expect(abs(slope) <= 1, "heard delay's slope after \(from) s: \(slope) ms a minute; \(listed)")
            // The placement's error (within 5 ms: HeardDelayTests), and up to 3 ms more from the
            // first minutes' rate carried back to where the placement put live.
            #expect(late.allSatisfy { abs($0.ms) <= 8 }, "\(listed)")
        }
        try expectHLSFollowed(
            hls, wav: directory.appendingPathComponent("\(stations.count).wav").path, marks: marks.starts,
            t0: packagerStart)
    }

    /// The HLS run's delay: more than a 6 s segment and its margin, so it is not raised.
    static let hlsDelay = 10.0

    /// The fast station as HLS: followed — from the second minute the heard delay holds
    /// within ±10 ms of where it ends (issue 67) — and placed by its prompt deliveries, a few hundred ms
    /// at most off the set delay (a segment's newest audio is made just before it is listed),
    /// not a segment off.
    func expectHLSFollowed(
        _ outcome: (status: Int32, diedOfSignal: Bool, lines: [PlayLine]), wav: String, marks: [Int], t0: Double
    ) throws {
        #expect(outcome.status == 0)
        #expect(!outcome.lines.states.contains("reconnecting"), "\(outcome.lines.states)")
        // Told once its rate is known to 15 ppm: a point a segment takes longer than a point
        // a second, so perhaps not within these 5 minutes.
        let told = outcome.lines.lines("station_clock").compactMap(\.ppm)
        #expect(told.count <= 1 && told.allSatisfy { abs($0 - 500) < 50 }, "HLS: the station's clock told: \(told)")
        // From when the placement has settled (two 6 s segments and a second after the first).
        let errors = try HeardDelayTests.heardErrors(
            of: outcome.lines, wav: wav, marks: marks, t0: t0, delay: Self.hlsDelay, ppm: 500, from: 20)
        let listed = errors.filter { Int($0.at) % 10 == 0 }.map { String(format: "%.0f s: %.1f", $0.at, $0.ms) }
        print("HLS of the station at 500 ppm: heard delay minus set (ms) \(listed)")
        try #require(errors.count >= 250, "HLS: \(errors.count) marks heard; \(listed)")
        let heard = errors.map(\.ms).sorted()
        let last = errors.suffix(60).map(\.ms).sorted()
        let final = last[last.count / 2]
        // A point a segment, each within ±6 ms here: followed from the first fit (six points),
        // weighed by its doubt, and held above the line where that fit put it, the heard delay
        // moved 10 ms in the first minute, then from minute 2 stayed within 1.7 ms of where it
        // ended (2026-12-01). Redrawn through the placement by each fit, within 11.2 (the first
        // minute 19); waiting for the rate to be evident, 21 (25); unfollowed it slid 30 ms a
        // minute: 150 ms.
        let moved = errors.filter { $0.at >= 120 }.map { $0.ms - final }
        #expect(moved.allSatisfy { abs($0) <= 10 }, "HLS: the heard delay moved from the second minute; \(listed)")
        #expect(abs(heard[heard.count / 2]) <= 250, "HLS: placed by its prompt deliveries; \(listed)")
    }

    /// Least-squares slope of `points` (ms against s), in ms a minute.
    static func slopePerMinute(_ points: [(at: Double, ms: Double)]) -> Double {
        let meanAt = points.map(\.at).reduce(0, +) / Double(points.count)
        let meanMs = points.map(\.ms).reduce(0, +) / Double(points.count)
        let products = points.reduce(0.0) { $0 + ($1.at - meanAt) * ($1.ms - meanMs) }
        let squares = points.reduce(0.0) { $0 + ($1.at - meanAt) * ($1.at - meanAt) }
        return products / squares * 60
    }
}
