/// A room's boxes as one (issue 58): each box's "live" is where its own path's least lag put
/// it, so two boxes on one stream differ by their paths (a few ms on a LAN, tens on bad
/// Wi-Fi). They compare lines by content: a run of packets named alike by every box that
/// received them (their bytes are the station's), and when each box takes that run to have
/// been live. `VenueAlignment` decides from the room's figures how far to move.
public struct VenueMark: Equatable, Sendable {
    /// The packets' fingerprint: their hashes and lengths, `PlaybackEngine.venueMarkPackets`
    /// of them in a row.
    public var fingerprint: UInt64
    /// When this box takes the run's first frame to have been live (its clock).
    public var liveAt: Instant
}

extension PlaybackEngine {
    /// Packets a mark spans: ~0.4 s of MP3 — long enough that a run of digital silence is
    /// told apart from the next by the audio around it, or found not unique and skipped.
    public static let venueMarkPackets = 16
    /// How far behind the newest audio a mark is taken: audio every box of the room
    /// that is on the air has received by the time its figure arrives.
    static let venueMarkAge = TimeAmount.seconds(5)
    /// The newest packets searched for a peer's mark: its audio is recent (~40 s of
    /// MP3, ~80 s of 20 ms Opus packets held at most behind the newest).
    static let venueSearchPackets: Int64 = 2_048

    /// A mark of the audio held about 5 s behind the newest, once the connection's
    /// placement has settled; nil while there is none to give (too little held, or the run
    /// is not unique among the packets searched: an encoder's silence).
    public func venueMark() -> VenueMark? {
        guard case .fixed = placement.phase, !line.isEmpty else { return nil }
        let target = line.endPosition - AudioFormat.frames(milliseconds: Self.venueMarkAge.milliseconds)
        guard let first = line.lastSequence(atOrBefore: target),
            first + Int64(Self.venueMarkPackets) <= line.endSequence,
            let fingerprint = venueFingerprint(from: first),
            venueSequences(matching: fingerprint).count == 1,
            let liveAt = liveClock.liveTime(ofPosition: StationFrames(line[first].position))
        else { return nil }
        return VenueMark(fingerprint: fingerprint, liveAt: liveAt)
    }

    /// When this box takes the audio a peer's mark names to have been live; nil when it does
    /// not hold that audio once, contiguous.
    public func liveTime(ofVenueMark fingerprint: UInt64) -> Instant? {
        let found = venueSequences(matching: fingerprint)
        guard found.count == 1, let sequence = found.first else { return nil }
        return liveClock.liveTime(ofPosition: StationFrames(line[sequence].position))
    }

    /// Takes live to lie `frames` further on the timeline at every moment (positive: the
    /// room plays this audio earlier than this box did), so playout steers onto the room's
    /// line as it steers onto any delay error: slips, or an aligned jump for a large one.
    /// Kept through the station clock's refits.
    public func moveLive(byFrames frames: Int64) {
        guard frames != 0 else { return }
        liveClock.move(by: StationFrames(frames))
        statistics.venueShiftFrames += frames
    }

    /// The fingerprint of the packets from `first` on, contiguous; nil when a gap breaks them.
    private func venueFingerprint(from first: Int64) -> UInt64? {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for sequence in first..<first + Int64(Self.venueMarkPackets) {
            if sequence > first, !line.continuesPrevious(sequence) { return nil }
            let entry = line[sequence]
            for word in [UInt64(entry.hash), UInt64(entry.payloadLength)] {
                hash = (hash ^ word) &* 0x100_0000_01b3
            }
        }
        return hash
    }

    /// The held runs (by first sequence, among the newest searched) whose fingerprint is
    /// `fingerprint`; two at most are looked for.
    private func venueSequences(matching fingerprint: UInt64) -> [Int64] {
        let last = line.endSequence - Int64(Self.venueMarkPackets)
        guard last >= line.firstSequence else { return [] }
        var found: [Int64] = []
        var sequence = max(line.firstSequence, last - Self.venueSearchPackets)
        while sequence <= last, found.count < 2 {
            if venueFingerprint(from: sequence) == fingerprint { found.append(sequence) }
            sequence += 1
        }
        return found
    }
}
