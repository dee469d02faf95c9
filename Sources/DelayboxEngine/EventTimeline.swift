/// Stream events ordered by timeline position, and the programme state they add up to.
///
/// Events are few (a handful per minute), so a sorted array and linear folds are the
/// simplest structure that is fast enough.
struct EventTimeline {
    /// Events at or after the oldest audio still held, in position order.
    private(set) var events: [TimelineEvent] = []
    /// The fold of every event already dropped.
    private var baseState = ProgrammeState()

    /// Adds `event`; an identical event at the same position (an Icecast burst resends
    /// metadata after a reconnect) is ignored. Returns whether it was added.
    @discardableResult
    mutating func insert(_ event: TimelineEvent) -> Bool {
        if events.contains(event) { return false }
        let index = events.firstIndex { $0.position > event.position } ?? events.endIndex
        events.insert(event, at: index)
        return true
    }

    /// What the events already dropped (older than the audio held) add up to.
    var folded: ProgrammeState { baseState }

    /// The programme state at `position`, counting events placed at or before it.
    func state(at position: Int64) -> ProgrammeState {
        var state = baseState
        for entry in events where entry.position <= position {
            state.apply(entry.event, at: entry.position)
        }
        return state.seen(from: position)
    }

    /// Events with `range.lowerBound <= position < range.upperBound`, in order.
    func events(in range: Range<Int64>) -> ArraySlice<TimelineEvent> {
        guard let first = events.firstIndex(where: { $0.position >= range.lowerBound }) else { return [] }
        let end = events[first...].firstIndex { $0.position >= range.upperBound } ?? events.endIndex
        return events[first..<end]
    }

    /// The earliest event at or after `position`, if any; playout uses it to know how far
    /// it may render before something must take effect.
    func firstEvent(atOrAfter position: Int64) -> TimelineEvent? {
        events.first { $0.position >= position }
    }

    /// Moves every event at or after `position` by `delta` frames (a connection's
    /// placement was refined), but those in `kept` (placed by the clock, not with the audio).
    mutating func shift(from position: Int64, by delta: Int64, keeping kept: Set<TimelineEvent> = []) {
        for index in events.indices where events[index].position >= position && !kept.contains(events[index]) {
            events[index].position += delta
        }
    }

    /// Folds events before `position` into the base state and drops them — except an ad
    /// break that runs past it: playout may yet come to its rest (a box that joined during
    /// a break holds no audio from its start). In place: no allocation while one is kept.
    mutating func dropEvents(before position: Int64) {
        guard let first = events.first, first.position < position else { return }
        let dropped = { (entry: TimelineEvent) in entry.position < position && !entry.runsPast(position) }
        for entry in events where dropped(entry) { baseState.apply(entry.event, at: entry.position) }
        events.removeAll(where: dropped)
    }
}
