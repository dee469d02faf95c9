import CFFmpeg
import DelayboxEngine
import DelayboxUnits
import Glibc

/// A live HLS station followed by the box itself (issue 67): its playlist polled on
/// `HLSPollSchedule`, each new segment fetched the moment it is listed and handed on, one
/// after the other, as one byte stream that FFmpeg's MPEG-TS (or ADTS, MP3) demuxer reads
/// through a custom I/O context (`FFmpegInput.followingHLS`). A segment's packets so arrive
/// when the station made them, and the station clock can follow the station's rate, which
/// FFmpeg's own HLS demuxer, reloading on its own schedule, hides.
///
/// Runs on the connection's I/O thread, inside FFmpeg's reads; a stop request (`gate`)
/// ends a wait within `napNanoseconds`.
final class HLSSegmentFeed {
    private let gate: InterruptGate
    private let playlistURL: String
    private var playlist: HLSPlaylist
    private var schedule: HLSPollSchedule
    /// The sequence number of the segment fetched last.
    private var fetched: Int
    /// The segment being handed on, and how much of it has been.
    private var bytes: [UInt8] = []
    private var offset = 0
    /// When a new segment was last listed (or the feed began), CLOCK_MONOTONIC ns.
    private var lastNewSegment: Int64
    /// The playlist's target duration: no segment is longer, so deliveries come at most
    /// this far apart.
    var targetDuration: TimeAmount { playlist.targetDuration }
    /// Why the feed gave up, for the connection's error.
    private(set) var failure: String?
    /// At most how much audio was lost since the stream last said so: segments that left
    /// the playlist before they could be fetched, a target duration each at most.
    private var unreportedLoss = TimeAmount.zero
    /// The I/O context FFmpeg reads through; freed with the feed.
    private(set) var io: UnsafeMutablePointer<AVIOContext>?

    /// The largest segment fetched (bytes): minutes of high-bitrate audio.
    static let maxSegmentBytes = 16_000_000
    /// The I/O context's buffer (bytes).
    static let ioBufferBytes = 32_768
    /// A wait between polls is slept in naps this long, so a stop request ends it promptly (ns).
    static let napNanoseconds: Int64 = 20_000_000
    /// No new segment for three target durations (at least 30 s) ends the connection: the
    /// station has stopped, and reconnecting is the session's.
    static let quietTargets: Int64 = 3
    static let leastQuietNanoseconds: Int64 = 30_000_000_000

    /// A feed of `playlist` (fetched from `playlistURL`), from three segments before its end.
    init(playlistURL: String, playlist: HLSPlaylist, gate: InterruptGate) throws(FFmpegError) {
        self.gate = gate
        self.playlistURL = playlistURL
        self.playlist = playlist
        schedule = HLSPollSchedule(
            targetDuration: playlist.targetDuration, newestDuration: playlist.segments.last?.duration ?? .zero)
        fetched = (playlist.startSequence ?? 0) - 1
        lastNewSegment = InterruptGate.monotonicNanoseconds()
        guard let buffer = av_malloc(Self.ioBufferBytes)?.assumingMemoryBound(to: UInt8.self) else {
            throw FFmpegError(operation: "av_malloc", code: dbx_averror(ENOMEM))
        }
        io = avio_alloc_context(
            buffer, Int32(Self.ioBufferBytes), 0, nil, Self.readCallback, nil, nil)
        guard let io else {
            av_free(buffer)
            throw FFmpegError(operation: "avio_alloc_context", code: dbx_averror(ENOMEM))
        }
        // The callback holds the feed unretained: the FFmpegInput that reads it owns it.
        io.pointee.opaque = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        if let io {
            av_freep(&io.pointee.buffer)
            avio_context_free(&self.io)
        }
    }

    /// FFmpeg's read callback: `opaque` is the feed.
    private static let readCallback:
        @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) ->
            Int32 = { opaque, buffer, size in
                guard let opaque, let buffer, size > 0 else { return dbx_averror(EINVAL) }
                return Unmanaged<HLSSegmentFeed>.fromOpaque(opaque).takeUnretainedValue().read(
                    into: buffer, size: Int(size))
            }

    /// Up to `size` bytes of the stream, waiting for the next segment when the current one
    /// is all handed on; a negative FFmpeg error when the feed ends.
    private func read(into buffer: UnsafeMutablePointer<UInt8>, size: Int) -> Int32 {
        while offset == bytes.count {
            if let code = advance() { return code }
        }
        let count = min(size, bytes.count - offset)
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + offset, count: count) }
        offset += count
        return Int32(count)
    }

    /// Fetches the next segment, polling the playlist until it is listed; nil when one is
    /// ready (or the playlist moved on), an FFmpeg error code when the feed ends.
    private func advance() -> Int32? {
        if let next = playlist.segments(after: fetched).first {
            if fetched >= 0, next.sequence > fetched + 1 {
                // The station's numbers: a jump by 2^52 is a count, not seconds to multiply.
                let missed = Int64(min(next.sequence - fetched - 1, HLSPlaylist.maxSegments))
                unreportedLoss = min(unreportedLoss + missed * playlist.targetDuration, Self.longestLoss)
            }
            fetched = next.sequence
            do throws(FFmpegError) {
                let total = max(.seconds(20), 3 * playlist.targetDuration)
                bytes = try HTTPFetch.document(
                    next.url, maxBytes: Self.maxSegmentBytes, totalTimeout: total, gate: gate
                ).bytes
                offset = 0
                return nil
            } catch {
                return give(up: "segment \(next.sequence): \(error)", code: error.code)
            }
        }
        return waitForNewSegment()
    }

    /// Polls the playlist on the schedule until it lists a segment after the one fetched.
    private func waitForNewSegment() -> Int32? {
        let quiet = max(Self.leastQuietNanoseconds, Self.quietTargets * playlist.targetDuration.nanoseconds)
        while true {
            var now = Instant(nanoseconds: InterruptGate.monotonicNanoseconds())
            let due = schedule.nextPoll(after: now, draw: Double.random(in: 0..<1))
            while now < due {
                guard !gate.isStopRequested else { return dbx_averror_exit() }
                var nap = timespec(tv_sec: 0, tv_nsec: Int(min(Self.napNanoseconds, (due - now).nanoseconds)))
                nanosleep(&nap, nil)
                now = Instant(nanoseconds: InterruptGate.monotonicNanoseconds())
            }
            guard now.nanoseconds - lastNewSegment < quiet else {
                return give(up: "no new segment listed in \(quiet / 1_000_000_000) s", code: dbx_averror(ETIMEDOUT))
            }
            let reading: HLSPlaylist.Reading
            do throws(FFmpegError) {
                let document = try HTTPFetch.document(playlistURL, maxBytes: HLSPlaylist.maxBytes, gate: gate)
                reading = HLSPlaylist.read(String(decoding: document.bytes, as: UTF8.self), from: document.location)
            } catch {
                if error.isInterrupted, gate.isStopRequested { return error.code }
                schedule.polled(at: now, newSegmentLasting: nil)
                continue  // A reload lost on the way: the next poll asks again, until quiet.
            }
            let seen = Instant(nanoseconds: InterruptGate.monotonicNanoseconds())
            switch reading {
            case .media(let reloaded):
                guard let newest = reloaded.segments.last, let known = playlist.newestSequence else { continue }
                if newest.sequence < known - reloaded.segments.count {
                    // Numbered anew (a packager restarted): on from its newest segment.
                    fetched = newest.sequence - 1
                } else if newest.sequence <= known {
                    schedule.polled(at: seen, newSegmentLasting: nil)
                    continue
                }
                playlist = reloaded
                schedule.polled(at: seen, newSegmentLasting: newest.duration)
                lastNewSegment = seen.nanoseconds
                return nil
            case .variant, .leftToFFmpeg, .refused:
                return give(
                    up: "the playlist changed into one the box does not follow", code: dbx_averror_invaliddata())
            }
        }
    }

    /// Whether a forward jump of `frames` in the stream's timestamps is the audio of the
    /// segments missed since the last such jump (at most theirs and a target duration more,
    /// the segments' own lengths being unknown once they left the playlist); the loss is
    /// then told. Another jump is the station's own (an encoder restarted).
    func isLostAudio(jumpFrames frames: Int64) -> Bool {
        guard unreportedLoss > .zero, frames > Self.leastLostFrames,
            frames <= (unreportedLoss + playlist.targetDuration).audioFrames
        else { return false }
        unreportedLoss = .zero
        return true
    }

    /// The most audio a jump may be told lost for: an hour (the longest delay held).
    static let longestLoss = TimeAmount.seconds(3_600)

    /// A jump this small (frames, 1 ms) is a timestamp's rounding, not a segment.
    static let leastLostFrames = Int64(AudioFormat.framesPerMillisecond)

    private func give(up reason: String, code: Int32) -> Int32 {
        failure = reason
        return code < 0 ? code : dbx_averror(EIO)
    }
}
