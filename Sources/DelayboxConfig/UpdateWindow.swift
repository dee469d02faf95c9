/// `update.window` (docs/board-config.md): the hours of the box's local day in which a new
/// release may restart it even while it plays — for a station on the air around the clock.
/// Outside it, an upgrade waits until the box is quiet (paused, building its delay, off the
/// air). `HH:MM-HH:MM`, crossing midnight when the end is earlier; `none`: never by the clock.
public struct UpdateWindow: Sendable, Equatable, CustomStringConvertible {
    /// Minutes after local midnight, 0..<1440; nil: no window.
    public let startMinute: Int?
    public let endMinute: Int?

    /// An hour before dawn, when no club plays: a box on the air around the clock still
    /// takes a release within a day.
    public static let standard = UpdateWindow(startMinute: 4 * 60, endMinute: 5 * 60)
    public static let none = UpdateWindow(startMinute: nil, endMinute: nil)

    init(startMinute: Int?, endMinute: Int?) {
        (self.startMinute, self.endMinute) = (startMinute, endMinute)
    }

    /// `HH:MM-HH:MM` or `none`; nil for anything else (an empty window too).
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: " ")
        if trimmed.lowercased() == "none" {
            self = .none
            return
        }
        let ends = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard ends.count == 2, let start = Self.minute(ends[0]), let end = Self.minute(ends[1]), start != end else {
            return nil
        }
        self.init(startMinute: start, endMinute: end)
    }

    /// Whether `minute` of the local day (0..<1440) is inside the window.
    public func contains(minuteOfDay minute: Int) -> Bool {
        guard let startMinute, let endMinute else { return false }
        return startMinute < endMinute
            ? (startMinute..<endMinute).contains(minute) : minute >= startMinute || minute < endMinute
    }

    public var description: String {
        guard let startMinute, let endMinute else { return "none" }
        return "\(Self.clock(startMinute))-\(Self.clock(endMinute))"
    }

    /// `H:MM` or `HH:MM`, 00:00 to 23:59 (24:00 means the day's end).
    private static func minute(_ text: Substring) -> Int? {
        let parts = text.trimmingCharacters(in: " ").split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let hours = Int(parts[0]), let minutes = Int(parts[1]), minutes < 60
        else { return nil }
        if hours == 24 && minutes == 0 { return 0 }
        return hours < 24 ? hours * 60 + minutes : nil
    }

    private static func clock(_ minute: Int) -> String {
        let (hours, minutes) = (minute / 60, minute % 60)
        return (hours < 10 ? "0" : "") + "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes)"
    }
}
