import DelayboxConfig
import DelayboxSimulation
import DelayboxTestSupport
import Foundation
import Testing

/// Streams that are broken on purpose, from a real HTTP server: an error on the channel,
/// never a crash.
@Suite(.serialized, .timeLimit(.minutes(10))) struct BrokenStreamTests {
    static let root = IcecastStreamTests.root

    @Test func garbageBytesAreAnErrorOnTheChannelNotACrash() throws {
        let directory = try ExternalTool.temporaryDirectory("garbage-http")
        defer { try? FileManager.default.removeItem(at: directory) }
        var generator = SplitMix64(seed: 7)
        try Data((0..<200_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
            .write(to: directory.appendingPathComponent("garbage.mp3"))
        let server = try StaticHTTPServer(directory: directory)
        let run = try PlayRun(
            root: Self.root,
            arguments: [
                server.url("garbage.mp3"), "--delay", "1", "--for", "3",
                "--backoff-cap", "0.5",
            ])
        let result = run.finish()
        #expect(!result.diedOfSignal, "no crash")
        #expect(
            result.lines.states.contains("reconnecting") || result.lines.states.contains("failed"),
            "the channel says something is wrong: \(result.lines.states)")
        #expect(!result.lines.states.contains("playing"))
    }

    @Test func aStreamCutInTheMiddleOfAFramePlaysWhatItHasAndEndsCleanly() throws {
        let directory = try ExternalTool.temporaryDirectory("truncated-http")
        defer { try? FileManager.default.removeItem(at: directory) }
        let whole = directory.appendingPathComponent("whole.mp3")
        try ExternalTool.encodeTone(
            frequency: 440, seconds: 4, sampleRate: 44_100, channels: 2,
            codecArguments: ["-c:a", "libmp3lame", "-b:a", "128k"], to: whole.path)
        let bytes = try Data(contentsOf: whole)
        try bytes.prefix(bytes.count * 6 / 10 + 77).write(to: directory.appendingPathComponent("cut.mp3"))
        let server = try StaticHTTPServer(directory: directory)
        let run = try PlayRun(root: Self.root, arguments: [server.url("cut.mp3"), "--fast", "--delay", "1"])
        let result = run.finish()
        #expect(!result.diedOfSignal && result.status == 0)
        let states = result.lines.states
        #expect(states.contains("playing"))
        #expect(states.last == "reconnecting", "the end of the data is a lost connection: \(states)")
        #expect(result.lines.lines("packet_rejected").isEmpty)
    }

    @Test func anUntrustedCertificateIsAClearErrorAndNothingPlays() throws {
        let directory = try ExternalTool.temporaryDirectory("untrusted-https")
        defer { try? FileManager.default.removeItem(at: directory) }
        try ExternalTool.encodeTone(
            frequency: 440, seconds: 2, sampleRate: 44_100, channels: 2,
            codecArguments: ["-c:a", "libmp3lame", "-b:a", "128k"],
            to: directory.appendingPathComponent("tone.mp3").path)
        let server = try StaticHTTPServer(directory: directory, selfSignedTLS: true)
        let run = try PlayRun(
            root: Self.root,
            arguments: [
                server.url("tone.mp3"), "--delay", "1", "--for", "2",
                "--backoff-cap", "0.5",
            ])
        let result = run.finish()
        #expect(!result.diedOfSignal && result.status == 0)
        #expect(!result.lines.states.contains("playing"), "an unverified server is never played")
        let reasons = result.lines.lines("state").compactMap { $0.reason }
        #expect(reasons.contains { $0.contains("certificate") }, "the reason names the certificate: \(reasons)")
    }
}
