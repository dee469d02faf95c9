/// Finds where a reconnect's first packets lie in the audio already received.
///
/// Servers resend recent audio on reconnect (Icecast's connect burst, HLS segments still
/// listed) and the resent packets are byte-identical to the ones received before, so
/// their place is found by content, never guessed from time. A match must hold for
/// every packet from the match up to the newest packet held. When content cannot
/// decide — identical packets repeat, as an encoder's digital silence does — the matcher
/// stays undecided with several candidates, and the engine picks among them (and only
/// among them) by arrival time once its placement window has passed.
struct SpliceMatcher {
    enum Verdict: Equatable {
        /// More packets are needed to decide.
        case undecided
        /// The new packets do not overlap what is held.
        case noOverlap
        /// The first new packet is the held packet with this sequence number.
        case splice(at: Int64)
    }

    /// Held packets that the new ones may continue from, by sequence number of the first.
    private(set) var candidates: [Int64] = []
    /// New packets offered so far.
    private var offered = 0
    private let searchStart: Int64

    init(searchStart: Int64) {
        self.searchStart = searchStart
    }

    /// Compares the next new packet with what `line` holds.
    mutating func offer(_ payload: [UInt8], line: DelayLine) -> Verdict {
        let hash = payload.withUnsafeBytes { DelayLine.hash($0) }
        let index = Int64(offered)
        offered += 1
        if index == 0 {
            candidates = (max(searchStart, line.firstSequence)..<line.endSequence).filter {
                line.matches($0, payload: payload, hash: hash)
            }
        } else {
            candidates = candidates.filter { first in
                first + index >= line.endSequence || line.matches(first + index, payload: payload, hash: hash)
            }
        }
        guard let only = candidates.first else { return .noOverlap }
        guard candidates.count == 1 else { return .undecided }
        // Decide only once every held packet after the match was compared: a resend
        // always runs up to the newest audio, a coincidental match rarely does.
        if only + index + 1 >= line.endSequence { return .splice(at: only) }
        return .undecided
    }
}
