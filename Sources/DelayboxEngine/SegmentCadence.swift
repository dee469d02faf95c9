import DelayboxUnits

/// How long a stream delivered in segments (HLS, DASH) leaves between its deliveries
/// (issue 67). Such a stream's audio comes a segment at a time: a 10 s segment's first frame
/// reaches the box about 10 s after it was live, so a delay shorter than the longest pause
/// between deliveries (plus the initial buffer) runs out at every segment — it played 3 s,
/// stopped until the next segment, and was raised a little at each of the next stalls. The
/// engine waits for the first pause before it starts such a stream, and never plays it at
/// less than the pause and `marginPercent` more (`allowanceFrames`).
struct SegmentCadence {
    /// A pause between two arrivals this long or longer (frames, 0.5 s) is a pause between
    /// deliveries; a continuous stream's packets come every few tens of ms.
    static let pauseFrames = Int64(AudioFormat.sampleRate) / 2
    /// How long a pause counts after it was seen, unless a longer one comes (frames of
    /// local time, 5 minutes): a server that once took 15 s to publish the next segment
    /// does not hold the delay up for good.
    static let memoryFrames = Int64(AudioFormat.sampleRate) * 300
    /// How long a stream delivered in segments may flow without a pause before it is
    /// played anyway (15 s: longer than the segments stations use): a playlist of a
    /// recording (`EXT-X-ENDLIST`) is read back to back and never pauses.
    static let firstPauseWait = TimeAmount.seconds(15)
    /// The margin on the longest pause (%): a playlist reload's timing moves each delivery
    /// by a few hundred ms (10.0 to 10.6 s measured with 10 s segments).
    static let marginPercent: Int64 = 10

    /// The last arrival on this connection (local frames); nil before its first.
    private var lastArrival: Int64?
    /// The longest recent pause (frames), and when it ended (local frames).
    private(set) var longestPauseFrames: Int64?
    private var longestEnded: Int64 = 0
    /// When the latest pause ended (local frames).
    private var latestPauseEnded: Int64 = 0

    /// A pause known before the first one is seen (frames), taken at the connection's first
    /// arrival.
    private var expectedPauseFrames: Int64?

    /// A new connection: its connect time is no pause between deliveries. `expectingPauseFrames`:
    /// how far apart its deliveries come, when known (the box follows an HLS playlist
    /// itself and knows its segments' length) — its first pause is then not waited for:
    /// after a connect it is only what was left of the segment being made.
    mutating func connectionOpened(expectingPauseFrames: Int64? = nil) {
        lastArrival = nil
        expectedPauseFrames = expectingPauseFrames
    }

    /// Audio arrived at local frame `local`.
    mutating func arrived(at local: Int64) {
        defer { lastArrival = local }
        if let expected = expectedPauseFrames {
            expectedPauseFrames = nil
            note(pauseFrames: expected, endedAt: local)
        }
        guard let last = lastArrival else { return }
        let pause = local - last
        guard pause >= Self.pauseFrames else { return }
        note(pauseFrames: pause, endedAt: local)
    }

    private mutating func note(pauseFrames pause: Int64, endedAt local: Int64) {
        latestPauseEnded = local
        if pause >= longestPauseFrames ?? 0 || local - longestEnded > Self.memoryFrames {
            (longestPauseFrames, longestEnded) = (pause, local)
        }
    }

    /// The least delay the deliveries allow beyond the initial buffer at local frame `local`
    /// (frames): the longest recent pause and its margin; 0 before a pause was seen, or
    /// when none came for `memoryFrames` (the stream flows on its own now).
    func allowanceFrames(atLocal local: Int64) -> Int64 {
        guard let pause = longestPauseFrames, local - latestPauseEnded <= Self.memoryFrames else { return 0 }
        return pause + pause * Self.marginPercent / 100
    }
}
