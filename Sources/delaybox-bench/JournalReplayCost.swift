import DelayboxEngine
import DelayboxFFmpeg
import DelayboxStream
import DelayboxTestSupport
import Foundation

/// What a restart's replay of the delay journal costs (issue 66): a 10-minute delay of a
/// 320 kbit/s station journalled, then read back message by message as the box does
/// (`replay`), beside reading it whole first (`recorded`, how it was done before) — the
/// memory added at the peak (resident, sampled while reading) and the time taken.
enum JournalReplayCost {
    static func figures() throws {
        let directory = try ExternalTool.temporaryDirectory("bench-journal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = "http://bench.example/live"
        let journal = DelayJournal(directory: directory.path, url: url, bootID: "bench")
        journal.keep(milliseconds: 600_000)
        let mp3 = CodecRecord(
            codecID: 86_017, sampleRate: 48_000, channels: 2, format: 8, bitRate: 320_000, blockAlign: 0,
            frameSize: 1_152, extradata: [])
        journal.record(.opened(try CodecParameters(record: mp3), at: .seconds(1)))
        // 320 kbit/s in 24 ms packets: 960 bytes each, 11 minutes of them.
        let packets = 11 * 60_000 / 24
        let payload = [UInt8](repeating: 0x5A, count: 960)
        for index in 0..<packets {
            journal.record(
                .packet(
                    StreamPacket(
                        payload: payload, connectionTimestamp: Int64(index) * 1_152, durationFrames: 1_152,
                        receivedAheadFrames: 0), at: Instant(nanoseconds: 1_000_000_000 + Int64(index) * 24_000_000)))
        }
        let end = Instant.seconds(24 * 3_600)
        let reader = { DelayJournal(directory: directory.path, url: url, bootID: "bench") }
        // Message by message, as the box replays it.
        var before = Bench.residentBytes(), peak = before, count = 0
        var started = Bench.cpuSeconds()
        reader().replay(before: end) { _ in
            count += 1
            if count % 1_000 == 0 { peak = max(peak, Bench.residentBytes()) }
        }
        let replaySeconds = Bench.cpuSeconds() - started
        let replayMB = Double(max(peak, Bench.residentBytes()) - before) / 1e6
        // Whole, as before issue 66.
        before = Bench.residentBytes()
        started = Bench.cpuSeconds()
        let whole = reader().recorded(before: end)
        let wholeMB = Double(Bench.residentBytes() - before) / 1e6
        let wholeSeconds = Bench.cpuSeconds() - started
        guard whole.count == count, count == packets + 1 else {
            throw Bench.BenchError("the journal read back \(count) and \(whole.count) of \(packets + 1) messages")
        }
        print("journal_mb_10min_320kbps: \(Bench.format(Double(journal.bytes) / 1e6))")
        print("journal_replay_peak_mb_10min: \(Bench.format(replayMB))")
        print("journal_replay_s_10min: \(Bench.format(replaySeconds))")
        print("journal_read_whole_peak_mb_10min: \(Bench.format(wholeMB))")
        print("journal_read_whole_s_10min: \(Bench.format(wholeSeconds))")
    }
}
