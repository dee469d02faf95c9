/// How far a box of a room moves its live to play as one with the others (issue 58). Each
/// peer's latest figure says how much later this box takes the same audio to have been
/// live; the box moves to the room's median, itself counted at 0 — two boxes meet halfway,
/// more follow the majority, and one far off (a clock not synchronised, a stranger on the
/// group's topic) moves nothing. Both ways, never only earlier: a room that only ever moved
/// to its earliest member would ratchet earlier with every wander of the lines.
///
/// A room already playing as one holds when a box joins (issue 67: when a second box joined,
/// the first jumped ~45 ms to meet it halfway): a box is *settled* once it has taken part
/// for `settledAfter` (its figures say so); a settled box counts only settled peers, and a
/// newcomer moves all the way to the settled boxes' median, itself not counted. Boxes that
/// all start together (none settled) meet as before. Pure; the caller's clock.
public struct VenueAlignment: Sendable {
    /// A peer's figure is forgotten after this (ms): a box that left the room.
    static let forgetAfter = TimeAmount.seconds(30)
    /// A median within this is left alone (frames): half a millisecond, so that two boxes,
    /// each moving half their difference, stop within a millisecond of each other.
    static let deadbandFrames: Int64 = 24
    /// A figure beyond this is not the room's line (frames, 300 ms): ignored.
    static let plausibleFrames: Int64 = 14_400
    /// The most the room may move this box in all, either way (frames, 300 ms).
    static let maximumShiftFrames: Int64 = 14_400
    /// Peers kept at most: anyone who may publish on the group's topics is heard.
    static let maximumPeers = 32

    /// How long a box takes part before it is settled: time for a newcomer's few moves.
    public static let settledAfter = TimeAmount.seconds(60)

    private var figures: [String: (laterFrames: Int64, settled: Bool, at: Instant)] = [:]
    /// Moved so far (frames; positive: earlier).
    public private(set) var shiftFrames: Int64 = 0

    public init() {}

    /// Peers whose figures count now.
    public var peers: Int { figures.count }

    /// `peer` took a run of audio to have been live `laterFrames` before this box did
    /// (negative: after), as heard at `now`; `settled`: it has played in the room a while.
    public mutating func heard(from peer: String, laterFrames: Int64, settled: Bool = true, at now: Instant) {
        guard (-Self.plausibleFrames...Self.plausibleFrames).contains(laterFrames),
            figures[peer] != nil || figures.count < Self.maximumPeers
        else { return }
        figures[peer] = (laterFrames, settled, now)
    }

    /// The move due at `now` (frames; positive: play earlier), 0 when none; `settled`: this
    /// box is. The figures it was made from are spent: they were measured against the line
    /// before the move.
    public mutating func move(now: Instant, settled: Bool = true) -> Int64 {
        figures = figures.filter { now - $0.value.at < Self.forgetAfter }
        let settledPeers = figures.values.filter(\.settled).map(\.laterFrames)
        // Settled: the settled room (newcomers move to it). A newcomer: the settled room
        // without itself, or, when nobody is settled yet, everyone with itself.
        let countsItself = settled || settledPeers.isEmpty
        let peers = settled || !settledPeers.isEmpty ? settledPeers : figures.values.map(\.laterFrames)
        guard !peers.isEmpty else { return 0 }
        let counted = countsItself ? [0] + peers : peers
        let sorted = counted.sorted()
        let middle = sorted.count / 2
        let median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        guard abs(median) > Self.deadbandFrames else { return 0 }
        let move = min(max(median, -Self.maximumShiftFrames - shiftFrames), Self.maximumShiftFrames - shiftFrames)
        shiftFrames += move
        figures.removeAll()
        return move
    }
}
