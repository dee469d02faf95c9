/// The engine's live clock: which timeline position is live at a local time, as a line
/// through an anchor at the station's rate (`StationClock`). Moved only by re-anchoring,
/// so that a new rate never makes "live" jump. The one place local and station frames
/// convert (`FrameCount`).
struct LiveLine: Equatable {
    /// Local frames since the engine's origin (at the nominal rate) of the anchor.
    var anchorLocal = LocalFrames.zero
    /// The timeline position live at the anchor.
    var anchorPosition = StationFrames.zero
    /// Stream frames the station makes per local frame (1 + its error).
    var rate = 1.0

    /// The timeline position live `local` frames after the origin.
    func position(atLocal local: LocalFrames) -> StationFrames {
        anchorPosition + stationFrames(local - anchorLocal)
    }

    /// The stream frames the station makes in `localFrames` of this box's time: how a
    /// delay (local time) is measured out on the timeline.
    func stationFrames(_ localFrames: LocalFrames) -> StationFrames {
        StationFrames(rate == 1 ? localFrames.count : Int64((Double(localFrames.count) * rate).rounded()))
    }

    /// The local frames in which the station makes `stationFrames`.
    func localFrames(_ stationFrames: StationFrames) -> LocalFrames {
        LocalFrames(rate == 1 ? stationFrames.count : Int64((Double(stationFrames.count) / rate).rounded()))
    }

    /// The same line at `rate`, continuous at `local`.
    func continued(at local: LocalFrames, rate: Double) -> LiveLine {
        LiveLine(anchorLocal: local, anchorPosition: position(atLocal: local), rate: rate)
    }
}
