import DelayboxEngine
import DelayboxFFmpeg
import DelayboxPlatform
import DelayboxStream
import DelayboxTestSupport
import Foundation
import Testing

/// The delay journal read back as written, and nothing else: another boot, another link,
/// a file cut in the middle of a record (a SIGKILL), bytes that are not a journal.
@Suite(.timeLimit(.minutes(10))) struct DelayJournalTests {
    static let mp3 = CodecRecord(
        codecID: 86_017, sampleRate: 48_000, channels: 2, format: 8, bitRate: 128_000, blockAlign: 0, frameSize: 1_152,
        extradata: [])

    static func messages(from start: Int64, count: Int) throws -> [StreamClient.Message] {
        var list: [StreamClient.Message] = [.opened(try CodecParameters(record: mp3), at: Instant(nanoseconds: start))]
        for index in 0..<count {
            let at = Instant(nanoseconds: start + Int64(index + 1) * 24_000_000)
            var packet = StreamPacket(
                payload: [UInt8](repeating: UInt8(index % 251), count: 384),
                connectionTimestamp: Int64(index) * 1_152, durationFrames: 1_152, receivedAheadFrames: 7)
            // One after audio lost on the way (an HLS segment dropped before it was fetched).
            packet.followsLostAudio = index == 50
            list.append(.packet(packet, at: at))
            if index == 10 { list.append(.title("Kick-off [delaybox:unmuted]", connectionTimestamp: 12_000, at: at)) }
        }
        return list
    }

    /// What the tests compare: the message with its codec as plain values.
    static func describe(_ message: StreamClient.Message) -> String {
        switch message {
        case .opened(let parameters, let at): "opened \(parameters.record) \(at)"
        default: "\(message)"
        }
    }

    @Test func whatWasJournalledIsReadBackInOrderByTheNextProcess() throws {
        let directory = try ExternalTool.temporaryDirectory("journal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try Self.messages(from: 1_000_000_000, count: 100) + [.lost("stall", at: .seconds(5))]
        let journal = DelayJournal(directory: directory.path, url: "http://club.example/live", bootID: "boot-1")
        for message in written { journal.record(message) }
        #expect(journal.problem == nil)
        let next = DelayJournal(directory: directory.path, url: "http://club.example/live", bootID: "boot-1")
        let read = next.recorded(before: .seconds(60))
        #expect(read.map(Self.describe) == written.map(Self.describe))
        // Not another boot's (CLOCK_MONOTONIC began again), not another link's.
        #expect(
            DelayJournal(directory: directory.path, url: "http://club.example/live", bootID: "boot-2")
                .recorded(before: .seconds(60)).isEmpty)
        #expect(
            DelayJournal(directory: directory.path, url: "http://other.example/live", bootID: "boot-1")
                .recorded(before: .seconds(60)).isEmpty)
    }

    /// Issue 66: a station at line rate (here 1 MB/s, a 60 s delay) fills the journal to its
    /// byte bound and no further; the newest audio is what stays, and it reads back.
    @Test func aStationAtLineRateFillsTheJournalOnlyToItsBound() throws {
        let directory = try ExternalTool.temporaryDirectory("journal-bound")
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = DelayJournal(directory: directory.path, url: "http://flood.example/live", bootID: "b")
        journal.keep(milliseconds: 60_000)
        journal.record(.opened(try CodecParameters(record: Self.mp3), at: .seconds(1)))
        let payload = [UInt8](repeating: 0x5A, count: 50_000)
        var most: Int64 = 0
        for index in 0..<6_000 {  // 300 s of 20 packets a second
            let at = Instant(nanoseconds: 1_000_000_000 + Int64(index) * 50_000_000)
            journal.record(
                .packet(
                    StreamPacket(
                        payload: payload, connectionTimestamp: Int64(index) * 2_400, durationFrames: 2_400,
                        receivedAheadFrames: 0), at: at))
            if index % 50 == 0 { most = max(most, Self.directoryBytes(directory)) }
        }
        #expect(journal.problem == nil)
        #expect(journal.maximumBytes == 120 * DelayJournal.maximumBytesPerSecond)
        #expect(most <= journal.maximumBytes + 100_000, "\(most) bytes on disk")
        #expect(most > journal.maximumBytes / 2, "it keeps what fits: \(most)")
        let read = DelayJournal(directory: directory.path, url: "http://flood.example/live", bootID: "b")
            .recorded(before: .seconds(400))
        guard case .packet(let packet, _)? = read.last else {
            Issue.record("nothing read back")
            return
        }
        #expect(packet.connectionTimestamp == 5_999 * 2_400, "the newest packet stays")
    }

    static func directoryBytes(_ directory: URL) -> Int64 {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: directory.path + "/" + $1)[.size]) as? Int64 ?? 0)
        }
    }

    @Test func aFileCutOrDamagedIsReadUpToTheDamage() throws {
        let directory = try ExternalTool.temporaryDirectory("journal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try Self.messages(from: 1_000_000_000, count: 20)
        let journal = DelayJournal(directory: directory.path, url: "u", bootID: "b")
        for message in written { journal.record(message) }
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first)
        let path = directory.appendingPathComponent(file).path
        var bytes = try #require(FileManager.default.contents(atPath: path))
        bytes.removeLast(100)  // the last record, cut by a SIGKILL
        try bytes.write(to: URL(fileURLWithPath: path))
        let read = DelayJournal(directory: directory.path, url: "u", bootID: "b").recorded(before: .seconds(60))
        #expect(read.map(Self.describe) == written.dropLast().map(Self.describe))
        // A length that lies ends the reading there: the fourth packet's payload length
        // (after the 24-byte header, the 73-byte codec record and three 425-byte packets,
        // its kind, time, timestamp, duration and read-ahead) made -1.
        var lying = try #require(FileManager.default.contents(atPath: path))
        let length = 24 + 73 + 3 * 425 + 33
        lying.replaceSubrange(length..<length + 8, with: [UInt8](repeating: 0xFF, count: 8))
        try lying.write(to: URL(fileURLWithPath: path))
        let damaged = DelayJournal(directory: directory.path, url: "u", bootID: "b").recorded(before: .seconds(60))
        #expect(damaged.map(Self.describe) == written.prefix(4).map(Self.describe))
        try Data("not a journal".utf8).write(to: URL(fileURLWithPath: path))
        #expect(DelayJournal(directory: directory.path, url: "u", bootID: "b").recorded(before: .seconds(60)).isEmpty)
    }

    /// A connection older than what is kept: its `opened` went with the oldest file, yet
    /// the replay begins with its codec (each file repeats it), once, and the packets that
    /// follow — it was replayed without one, and nothing could decode it until the next
    /// connection opened.
    @Test func aConnectionOlderThanTheJournalIsReplayedWithItsCodec() throws {
        let directory = try ExternalTool.temporaryDirectory("journal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = DelayJournal(directory: directory.path, url: "u", bootID: "b")
        journal.keep(milliseconds: 10_000)
        // 200 s of one connection, a packet every 24 ms: files begin at 0, 60, 120, 180 s.
        let written = try Self.messages(from: 1_000_000, count: 8_333)
        for message in written { journal.record(message) }
        let read = DelayJournal(directory: directory.path, url: "u", bootID: "b").recorded(before: .seconds(300))
        let first = try #require(read.first)
        #expect(Self.describe(first).hasPrefix("opened \(try CodecParameters(record: Self.mp3).record)"))
        #expect(read.dropFirst().allSatisfy { !$0.opensAConnection })
        // The two newest files (from 120 s: 70 s behind the newest message is 130 s).
        let packets = read.dropFirst().compactMap { if case .packet(let packet, _) = $0 { packet } else { nil } }
        #expect(packets.count > 2_500 && packets.count < 5_000, "\(packets.count)")
        let timestamps = packets.map(\.connectionTimestamp)
        #expect(zip(timestamps, timestamps.dropFirst()).allSatisfy { $1 == $0 + 1_152 })
        #expect(first.time <= read[1].time)
    }

    /// Live marks are read back where they were written among the messages, their times
    /// on the reading process's clock.
    @Test func liveMarksAreReadBackInOrderWithTheMessages() throws {
        let directory = try ExternalTool.temporaryDirectory("journal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let messages = try Self.messages(from: 1_000_000_000, count: 100)
        let journal = DelayJournal(directory: directory.path, url: "u", bootID: "b", clockZero: 5_000_000_000)
        for (index, message) in messages.enumerated() {
            journal.record(message)
            if index == 50 { journal.record(LiveMark(at: message.time, connectionFrame: 123_456, rate: 1.000_3)) }
        }
        var read: [String] = []
        DelayJournal(directory: directory.path, url: "u", bootID: "b", clockZero: 2_000_000_000).replay(
            before: .seconds(60), liveMarks: { read.append("mark \($0.connectionFrame) \($0.rate) \($0.at)") }
        ) { read.append("\($0.time)") }
        let shifted = messages.map { "\(Instant(nanoseconds: $0.time.nanoseconds + 3_000_000_000))" }
        let mark = "mark 123456 1.0003 \(Instant(nanoseconds: messages[50].time.nanoseconds + 3_000_000_000))"
        #expect(read == Array(shifted[...50]) + [mark] + Array(shifted[51...]))
    }

    /// A box stopped for longer than its delay: what it journalled ends before where
    /// playout starts, so it is removed, not replayed (replayed, the gap after it was taken
    /// for the arrivals' lag: the delay raised from 20 s to 87 s, and silence). Within the
    /// delay it is resumed.
    @Test(arguments: [(25, true), (40, false)])
    func aJournalIsResumedOnlyWhereTheDelayReachesIt(startedAtSeconds: Double, resumes: Bool) throws {
        let directory = try ExternalTool.temporaryDirectory("journal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = "http://127.0.0.1:9/live.mp3"
        let written = DelayJournal(directory: directory.path, url: url, bootID: "b")
        // 1 s to 10 s of one connection.
        for message in try Self.messages(from: 1_000_000_000, count: 375) { written.record(message) }
        let session = try ChannelSession(
            channel: Channel(name: "Live", streamURL: url), configuration: EngineConfiguration(),
            delay: .milliseconds(20_000),
            client: StreamClient.Options(), clock: SystemClock())
        defer { session.stop(now: .seconds(startedAtSeconds)) }
        let said = session.start(
            now: .seconds(startedAtSeconds),
            journal: DelayJournal(directory: directory.path, url: url, bootID: "b"))
        #expect(said.contains { $0.hasPrefix("resumed ") } == resumes, "\(said)")
        let held = session.engine.status(at: .seconds(startedAtSeconds)).availableDelay.milliseconds
        #expect(resumes ? held > 0 : held == 0, "\(held) ms held")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(left.isEmpty != resumes, "\(left)")
    }

    /// Files hold about a minute each; those older than the delay and a minute go.
    @Test func onlyWhatTheDelayCanReachIsKept() throws {
        let directory = try ExternalTool.temporaryDirectory("journal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = DelayJournal(directory: directory.path, url: "u", bootID: "b")
        journal.keep(milliseconds: 30_000)
        for minute in 0..<6 {
            for message in try Self.messages(from: Int64(minute) * 61_000_000_000 + 1, count: 3) {
                journal.record(message)
            }
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        // Files begin at 0, 61, … 305 s; 90 s (30 s + a minute) behind 305 s is 215 s, in the
        // file begun at 183 s: it and the two after it are kept.
        #expect(files.count == 3, "\(files.sorted())")
    }
}
