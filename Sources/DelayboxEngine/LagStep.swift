/// A step in one connection's arrival lag: the path changed under it (a route, a CDN's
/// load balancer moving the connection to another edge) and every packet now comes a fixed
/// amount later, or earlier (issue 67). With one intercept for the connection, the station
/// clock's line reads such a step as the station's rate — a route 100 ms longer moved the
/// heard delay by 150 ms over ten minutes, then back. Found, the points from the step on
/// become a segment of their own whose lag is learnt, as a splice's is.
///
/// A step is the newest `sustain` of a segment's points lying off the `baseline` before
/// them by more than `leastStep` and six times the baseline's own scatter, nearly all of
/// them on that side. Pure: frames.
enum LagStep {
    /// How long the new lag must hold (frames of local time, 30 s): a congested half
    /// minute that passes is left to the fit's own rejection of late points.
    static let sustainFrames = Int64(AudioFormat.sampleRate) * 30
    /// Points the step must have at least (a segmented stream gives one a delivery).
    static let fewestSustained = 5
    /// The baseline: points before the step, at least `fewestBaseline`, at most `mostBaseline`.
    static let fewestBaseline = 20
    static let mostBaseline = 300
    /// The smallest step taken (frames, 20 ms): less is a path's ordinary wander.
    static let leastStepFrames = Double(AudioFormat.sampleRate) * 0.020
    /// How many of the step's points may lie on the baseline's side (a packet or two that
    /// found the old path's luck).
    static let strayShare = 0.1

    /// Where a sustained step in `segment`'s lag began (the local frame of its first point),
    /// nil when there is none. `points`: the station clock's, oldest first; `slope`: the fit's
    /// rate; `batchingStep`: how far batched points lie below the first seconds' (the fit's).
    static func begins(in points: [StationClock.Point], segment: Int, slope: Double, batchingStep: Double?)
        -> Int64?
    {
        let own = points.filter { $0.segment == segment }
        guard let newest = own.last?.local else { return nil }
        let levels: [Double] = own.map { point in
            let raised = point.beforeBatching ? 0 : (batchingStep ?? 0)
            return Double(point.stream) + raised - slope * Double(point.local)
        }
        let recent = own.lastIndex { newest - $0.local >= sustainFrames }.map { $0 + 1 } ?? 0
        let baselineStart = max(0, recent - mostBaseline)
        guard own.count - recent >= fewestSustained, recent - baselineStart >= fewestBaseline else { return nil }
        let baseline = Array(levels[baselineStart..<recent]).sorted()
        let middle = baseline[baseline.count / 2]
        let scatter = 1.4826 * (baseline.map { abs($0 - middle) }.sorted()[baseline.count / 2])
        let step = Array(levels[recent...]).sorted()[(own.count - recent) / 2] - middle
        guard abs(step) > max(leastStepFrames, 6 * scatter) else { return nil }
        // Nearly all of the recent points beyond half the step; the step began at the first
        // of the run of them that reaches back from the newest.
        let beyond = { (level: Double) in step > 0 ? level - middle > step / 2 : middle - level > -step / 2 }
        let strays = levels[recent...].filter { !beyond($0) }.count
        guard Double(strays) <= strayShare * Double(own.count - recent) else { return nil }
        var first = own.count - 1
        while first > 0, beyond(levels[first - 1]) { first -= 1 }
        return own[max(first, recent - (recent - baselineStart) / 2)].local
    }
}
