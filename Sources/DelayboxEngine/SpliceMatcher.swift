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

    /// Candidates few enough to compare byte for byte.
    static let comparedInFull = 8

    init(searchStart: Int64) {
        self.searchStart = searchStart
    }

    /// Compares the next new packet with what `line` holds.
    mutating func offer(_ payload: [UInt8], line: DelayLine) -> Verdict {
        let hash = payload.withUnsafeBytes { DelayLine.hash($0) }
        let index = Int64(offered)
        offered += 1
        let held = line.endSequence
        func matching(_ firsts: some Sequence<Int64>, inFull: Bool) -> [Int64] {
            firsts.filter { first in
                first + index >= held || line.matches(first + index, payload: payload, hash: hash, inFull: inFull)
            }
        }
        // By length and hash first, byte for byte once few are left: an encoder's digital
        // silence is thousands of identical packets, each compared in full for every new
        // one (a restart's splice on a stream of mostly silence held the playout thread for
        // 300 ms, and the output ran dry). The packets that decide are compared in full.
        candidates = matching(
            index == 0 ? Array(max(searchStart, line.firstSequence)..<held) : candidates, inFull: false)
        if candidates.count <= Self.comparedInFull { candidates = matching(candidates, inFull: true) }
        guard let only = candidates.first else { return .noOverlap }
        guard candidates.count == 1 else { return .undecided }
        // Decide only once every held packet after the match was compared: a resend
        // always runs up to the newest audio, a coincidental match rarely does.
        if only + index + 1 >= line.endSequence { return .splice(at: only) }
        return .undecided
    }
}
