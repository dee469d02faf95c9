import DelayboxControls
import DelayboxUnits

/// Builds edge timelines for an encoder on lines A and B, the way a real knob makes them:
/// Gray-code steps, optional contact bounce on every edge, lost transitions.
struct EdgeTimeline {
    let a: Int
    let b: Int
    private(set) var levels: (a: Bool, b: Bool) = (true, true)
    private(set) var edges: [EdgeEvent] = []
    var now = Instant.zero

    init(a: Int, b: Int) {
        self.a = a
        self.b = b
    }

    /// Phases of the Gray cycle, as QuadratureDecoder counts them.
    static let cycle: [(Bool, Bool)] = [(false, false), (false, true), (true, true), (true, false)]

    private var phase: Int { Self.cycle.firstIndex { $0 == levels.a && $1 == levels.b } ?? 0 }

    /// One quarter step (+1 or -1) taking `step`; with `bounce`, the changing line
    /// chatters three times within a millisecond first.
    mutating func step(_ direction: Int, step: TimeAmount = .milliseconds(5), bounce: Bool = false, lost: Bool = false)
    {
        let next = Self.cycle[(phase + direction + 4) % 4]
        now = now + step
        if lost {
            // The reader missed this state: nothing is recorded; the next step sees both lines change.
            levels = next
            return
        }
        let line = next.0 != levels.a ? a : b
        let level = line == a ? next.0 : next.1
        if bounce {
            for chatter in 0..<3 {
                edges.append(
                    EdgeEvent(
                        line: line, high: chatter % 2 == 0 ? level : !level,
                        at: now + Int64(chatter) * .microseconds(200)
                    ))
            }
            now = now + .microseconds(600)
        }
        edges.append(EdgeEvent(line: line, high: level, at: now))
        levels = next
    }

    /// The edge that a lost state would have hidden, when both lines are read at once.
    mutating func resync() {
        edges.append(EdgeEvent(line: a, high: levels.a, at: now))
        edges.append(EdgeEvent(line: b, high: levels.b, at: now))
    }

    mutating func detents(
        _ count: Int, direction: Int, stepsPerDetent: Int = 4, step: TimeAmount = .milliseconds(5), bounce: Bool = false
    ) {
        for _ in 0..<(count * stepsPerDetent) { self.step(direction, step: step, bounce: bounce) }
    }
}
