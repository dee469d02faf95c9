/// The engine's live clock: which timeline position is live at a local time, as a line
/// through an anchor at the station's rate (`StationClock`). Moved only by re-anchoring,
/// so that a new rate never makes "live" jump.
struct LiveLine: Equatable {
    /// Local frames since the engine's origin (at the nominal rate) of the anchor.
    var anchorLocal: Int64 = 0
    /// The timeline position live at the anchor.
    var anchorPosition: Int64 = 0
    /// Stream frames the station makes per local frame (1 + its error).
    var rate = 1.0

    /// The timeline position live `local` frames after the origin.
    func position(atLocal local: Int64) -> Int64 {
        anchorPosition + stationFrames(local - anchorLocal)
    }

    /// The stream frames the station makes in `localFrames` of this box's time: how a
    /// delay (local time) is measured out on the timeline.
    func stationFrames(_ localFrames: Int64) -> Int64 {
        rate == 1 ? localFrames : Int64((Double(localFrames) * rate).rounded())
    }

    /// The local frames in which the station makes `stationFrames`.
    func localFrames(_ stationFrames: Int64) -> Int64 {
        rate == 1 ? stationFrames : Int64((Double(stationFrames) / rate).rounded())
    }

    /// The same line at `rate`, continuous at `local`.
    func continued(at local: Int64, rate: Double) -> LiveLine {
        LiveLine(anchorLocal: local, anchorPosition: position(atLocal: local), rate: rate)
    }
}
