/// Reads the delay line at one timeline position, decoding packets as it goes.
///
/// A head plays sequentially: each call continues from where the last one stopped, so
/// the audio it delivers is continuous unless the timeline itself has a gap. Where audio
/// was lost it delivers silence of exactly the gap's length, with a short fade on both
/// edges (the fade is a function of the position, so it needs no state). The engine
/// keeps two heads so that a delay change can crossfade from one to the other.
final class ReadHead {
    /// Largest decoded packet, in frames (about 341 ms).
    static let maximumPacketFrames = 16_384

    /// What one `render` call delivered.
    struct Outcome {
        /// Frames written (less than asked only when starved).
        var frames = 0
        /// Frames of silence written because no audio exists at the position.
        var silentFrames = 0
        /// Playout reached the newest audio and more is expected: the caller must wait.
        var starved = false
        /// Packets that failed to decode and were played as silence.
        var decodeErrors = 0
    }

    private let decoder: any PacketDecoder
    private let decoded: UnsafeMutableBufferPointer<Float>
    private let fadeFrames: Int64

    /// Timeline position of the next frame to deliver.
    private(set) var position: Int64 = 0
    /// Sequence number of the packet in `decoded`, or nil.
    private var decodedSequence: Int64?
    /// Timeline position of `decoded`'s first frame; its length is the packet's duration.
    private var decodedStart: Int64 = 0
    private var decodedCount = 0
    /// Start of the segment the decoded packet opens (fade in), if it opens one.
    private var fadeInStart: Int64?
    /// End of the segment if it ends within a fade after the decoded packet (fade out).
    private var fadeOutEnd: Int64?

    init(decoder: any PacketDecoder, fadeFrames: Int64) {
        self.decoder = decoder
        self.fadeFrames = max(fadeFrames, 1)
        decoded = .allocate(capacity: Self.maximumPacketFrames * AudioFormat.channelCount)
        decoded.initialize(repeating: 0)
    }

    deinit { decoded.deallocate() }

    /// Moves to `position`; the next render decodes from there (with the decoder's preroll).
    func seek(to position: Int64) {
        self.position = position
        decodedSequence = nil
    }

    /// Moves the head and its decoded packet by `delta` frames, together with the packets
    /// under it (their placement was refined); what it delivers does not change.
    func shift(by delta: Int64) {
        position += delta
        decodedStart += delta
        fadeInStart = fadeInStart.map { $0 + delta }
        fadeOutEnd = fadeOutEnd.map { $0 + delta }
    }

    /// Writes `frames` interleaved stereo frames to `out`.
    /// - Parameter advanceBeyondData: whether to play on as silence past the newest audio
    ///   (the connection is down, so that audio counts as lost) instead of starving.
    func render(into out: UnsafeMutablePointer<Float>, frames: Int, line: DelayLine, advanceBeyondData: Bool) -> Outcome
    {
        var outcome = Outcome()
        let channels = AudioFormat.channelCount
        while outcome.frames < frames {
            let remaining = frames - outcome.frames
            let target = out + outcome.frames * channels
            if decodedSequence != nil, position >= decodedStart, position < decodedStart + Int64(decodedCount) {
                let offset = Int(position - decodedStart)
                let count = min(remaining, decodedCount - offset)
                copyDecoded(from: offset, count: count, to: target)
                position += Int64(count)
                outcome.frames += count
                continue
            }
            if let current = decodedSequence, current + 1 >= line.firstSequence, current + 1 < line.endSequence,
                abs(line[current + 1].position - position) <= DelayLine.contiguityToleranceFrames
            {
                position = line[current + 1].position
                decode(current + 1, line: line, advanceBeyondData: advanceBeyondData, outcome: &outcome)
                continue
            }
            if let sequence = line.sequence(containing: position) {
                decoder.reset()
                for preroll in max(sequence - Int64(decoder.prerollPackets), line.firstSequence)..<sequence {
                    decode(preroll, line: line, advanceBeyondData: advanceBeyondData, outcome: &outcome)
                }
                decode(sequence, line: line, advanceBeyondData: advanceBeyondData, outcome: &outcome)
                continue
            }
            let next = line.lastSequence(atOrBefore: position).map { $0 + 1 } ?? line.firstSequence
            let silence: Int
            if next < line.endSequence {
                silence = min(remaining, Int(line[next].position - position))
            } else if advanceBeyondData {
                silence = remaining
            } else {
                outcome.starved = true
                break
            }
            target.update(repeating: 0, count: silence * channels)
            position += Int64(silence)
            outcome.frames += silence
            outcome.silentFrames += silence
        }
        return outcome
    }

    /// Decodes the packet at `sequence` into `decoded`, sized to the packet's duration:
    /// a short decode holds its last frame (a rounding frame, inaudible), a long one is cut.
    private func decode(_ sequence: Int64, line: DelayLine, advanceBeyondData: Bool, outcome: inout Outcome) {
        let entry = line[sequence]
        let duration = min(Int(entry.durationFrames), Self.maximumPacketFrames)
        var produced: Int
        do {
            produced = try decoder.decode(line.payload(of: entry), frameCount: duration, into: decoded)
        } catch {
            produced = 0
            outcome.decodeErrors += 1
        }
        let channels = AudioFormat.channelCount
        if produced < duration {
            if produced == 0 {
                (decoded.baseAddress! + 0).update(repeating: 0, count: duration * channels)
            } else {
                for frame in produced..<duration {
                    for channel in 0..<channels {
                        decoded[frame * channels + channel] = decoded[(produced - 1) * channels + channel]
                    }
                }
            }
        }
        decodedSequence = sequence
        decodedStart = entry.position
        decodedCount = duration
        fadeInStart = line.continuesPrevious(sequence) ? nil : entry.position
        fadeOutEnd = segmentEnd(after: sequence, line: line, advanceBeyondData: advanceBeyondData)
    }

    /// The end of the segment holding `sequence` if it comes within a fade of the
    /// packet's end: before a gap, or at the newest audio while the connection is down.
    private func segmentEnd(after sequence: Int64, line: DelayLine, advanceBeyondData: Bool) -> Int64? {
        let horizon = line[sequence].end + fadeFrames
        var current = sequence
        while true {
            let end = line[current].end
            if current + 1 >= line.endSequence { return advanceBeyondData ? end : nil }
            if !line.continuesPrevious(current + 1) { return end }
            if end >= horizon { return nil }
            current += 1
        }
    }

    private func copyDecoded(from offset: Int, count: Int, to target: UnsafeMutablePointer<Float>) {
        let channels = AudioFormat.channelCount
        let source = decoded.baseAddress! + offset * channels
        let first = decodedStart + Int64(offset)
        let last = first + Int64(count)
        let fadingIn = fadeInStart.map { first < $0 + fadeFrames } ?? false
        let fadingOut = fadeOutEnd.map { last > $0 - fadeFrames } ?? false
        guard fadingIn || fadingOut else {
            target.update(from: source, count: count * channels)
            return
        }
        let scale = 1 / Float(fadeFrames)
        for frame in 0..<count {
            let position = first + Int64(frame)
            var gain: Float = 1
            if let start = fadeInStart { gain = min(gain, Float(position - start + 1) * scale) }
            if let end = fadeOutEnd { gain = min(gain, Float(end - position) * scale) }
            for channel in 0..<channels {
                target[frame * channels + channel] = source[frame * channels + channel] * gain
            }
        }
    }
}
