import DelayboxMixer
import DelayboxTestSupport
import Foundation
import Testing

@testable import DelayboxApp
@testable import DelayboxClips

/// The mute music and ad cache against a real HTTP server on loopback: fetched once,
/// played from disk when the server is gone, least recently used evicted under the cap,
/// and a file that is not audio refused with the reason.
@Suite(.timeLimit(.minutes(10))) struct ClipCacheTests {
    /// A directory served over HTTP holding `count` MP3s of `seconds` each (tone.N.mp3) and
    /// a text file posing as an MP3.
    static func served(_ name: String, count: Int = 1, seconds: Double = 2) throws -> (URL, StaticHTTPServer) {
        let directory = try ExternalTool.temporaryDirectory(name)
        for index in 0..<count {
            try ExternalTool.encodeTone(
                frequency: 440 + 110 * index, seconds: seconds, sampleRate: 44_100, channels: 1,
                codecArguments: ["-b:a", "128k"], to: directory.appendingPathComponent("tone.\(index).mp3").path)
        }
        try "<html>not found, but said with 200</html>".write(
            to: directory.appendingPathComponent("fake.mp3"), atomically: true, encoding: .utf8)
        return (directory, try StaticHTTPServer(directory: directory))
    }

    @Test func aFileIsFetchedOnceAndPlaysFromTheCacheWhenTheServerIsGone() throws {
        var (directory, server): (URL, StaticHTTPServer?) = try Self.served("clips-offline")
        let cache = ClipCache(directory: directory.appendingPathComponent("cache"), capBytes: 10_000_000)
        let url = server!.url("tone.0.mp3")
        let fetched = try cache.clip(url, maxSeconds: 60)
        #expect(abs(fetched.frames - 96_000) < 2_400, "2 s at 48 kHz (\(fetched.frames) frames)")
        let peak = fetched.samples.map { abs(Int($0)) }.max() ?? 0
        #expect(peak > 2_000, "decoded audio, not silence (peak \(peak))")
        #expect(cache.entries().count == 1)
        server = nil  // the network is down
        let cached = try cache.clip(url, maxSeconds: 60)
        #expect(cached == fetched)
        #expect(throws: ClipCache.Failure.self) { try cache.clip(url + "?other", maxSeconds: 60) }
    }

    @Test func theLeastRecentlyUsedFileGoesFirstUnderTheCap() throws {
        let (directory, server) = try Self.served("clips-evict", count: 3)
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("tone.0.mp3").path)[.size]
                as? Int)
        // Room for two files, not three.
        let cache = ClipCache(directory: directory.appendingPathComponent("cache"), capBytes: Int64(size * 5 / 2))
        _ = try cache.clip(server.url("tone.0.mp3"), maxSeconds: 60)
        Thread.sleep(forTimeInterval: 0.02)  // distinct modification times
        _ = try cache.clip(server.url("tone.1.mp3"), maxSeconds: 60)
        Thread.sleep(forTimeInterval: 0.02)  // (the cache orders by them: the point of the test)
        _ = try cache.clip(server.url("tone.0.mp3"), maxSeconds: 60)  // used again: now the newest
        Thread.sleep(forTimeInterval: 0.02)  // likewise
        _ = try cache.clip(server.url("tone.2.mp3"), maxSeconds: 60)
        let names = Set(cache.entries().map(\.name))
        #expect(
            names == [
                ClipCache.fileName(for: server.url("tone.0.mp3")), ClipCache.fileName(for: server.url("tone.2.mp3")),
            ])
    }

    @Test func aFileThatIsNotAudioIsRefusedWithTheReasonAndNotKept() throws {
        let (directory, server) = try Self.served("clips-fake", count: 0)
        let cache = ClipCache(directory: directory.appendingPathComponent("cache"), capBytes: 10_000_000)
        do {
            _ = try cache.clip(server.url("fake.mp3"), maxSeconds: 60)
            Issue.record("a text file was accepted as audio")
        } catch {
            #expect(error.description.contains("fake.mp3 is not usable audio"), "\(error)")
        }
        #expect(cache.entries().isEmpty)
        do {
            _ = try cache.clip(server.url("missing.mp3"), maxSeconds: 60)
            Issue.record("a missing file was accepted")
        } catch {
            #expect(error.description.contains("cannot fetch") && error.description.contains("404"), "\(error)")
        }
    }

    /// Local files are read in place; the length is capped as asked.
    @Test func localFilesAreReadInPlaceUpToTheLengthAsked() throws {
        let (directory, _) = try Self.served("clips-local")
        let cache = ClipCache(directory: directory.appendingPathComponent("cache"), capBytes: 10_000_000)
        let path = directory.appendingPathComponent("tone.0.mp3").path
        let clip = try cache.clip("file://" + path, maxSeconds: 1)
        #expect(clip.frames == 48_000)
        #expect(try cache.clip(path, maxSeconds: 60).frames > 90_000)
        #expect(cache.entries().isEmpty, "nothing copied")
    }
}
