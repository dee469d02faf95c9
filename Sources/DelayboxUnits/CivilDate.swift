/// A day of the proleptic Gregorian calendar in UTC, from Unix time — for names and
/// labels (a backup's file name), without Foundation's calendars. Howard Hinnant's
/// `civil_from_days`.
public struct CivilDate: Sendable, Equatable {
    public var year: Int64
    public var month: Int64
    public var day: Int64

    public init(unixSeconds: Int64) {
        let days = unixSeconds >= 0 ? unixSeconds / 86_400 : (unixSeconds - 86_399) / 86_400
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `2026-11-30`.
    public var text: String { "\(year)-\(Self.two(month))-\(Self.two(day))" }

    /// The day and the minute in UTC (`2026-11-30 12:03 UTC`): when a box kept a copy, in
    /// words a console shows without knowing the board's time zone.
    public static func stamp(unixSeconds: Int64) -> String {
        let minute = ((unixSeconds % 86_400) + 86_400) % 86_400 / 60
        return CivilDate(unixSeconds: unixSeconds).text + " \(two(minute / 60)):\(two(minute % 60)) UTC"
    }

    private static func two(_ number: Int64) -> String { number < 10 ? "0\(number)" : "\(number)" }
}
