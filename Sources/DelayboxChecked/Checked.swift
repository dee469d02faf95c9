/// Numbers from outside — a stream's titles and bytes, a network peer's payload, a user's
/// file — made into the integers the box computes with, or refused. Swift traps on a
/// conversion of a non-finite or too-large `Double` to an integer and on integer overflow,
/// and a trap reachable from a stream is a crash loop (the server resends its title to
/// every new listener, so the restarted box meets it again): every such conversion and
/// every arithmetic on a size or time from outside goes through here and yields nil
/// instead.
///
/// Finding a raw one: `grep -rnE 'Int(8|16|32|64)?\([^)]*\.rounded\(' Sources` lists the
/// conversions from floating point; each outside this file must be on a value the box
/// made itself (a volume curve, a timer) or already bounded by one of these helpers.
public enum Checked {
    /// `value` rounded to the nearest integer (half away from zero), if it is finite and
    /// the result lies in `range`.
    public static func integer(_ value: Double, in range: ClosedRange<Int64>) -> Int64? {
        guard value.isFinite, let integer = Int64(exactly: value.rounded()), range.contains(integer) else { return nil }
        return integer
    }

    /// `value × scale` rounded, if finite and in `range`: seconds to milliseconds is
    /// `scaled(seconds, by: 1_000, in: …)`.
    public static func scaled(_ value: Double, by scale: Double, in range: ClosedRange<Int64>) -> Int64? {
        integer(value * scale, in: range)
    }

    /// `a + b`, nil on overflow.
    public static func sum(_ a: Int64, _ b: Int64) -> Int64? {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? nil : result
    }

    /// `a - b`, nil on overflow.
    public static func difference(_ a: Int64, _ b: Int64) -> Int64? {
        let (result, overflow) = a.subtractingReportingOverflow(b)
        return overflow ? nil : result
    }

    /// `a × b`, nil on overflow.
    public static func product(_ a: Int64, _ b: Int64) -> Int64? {
        let (result, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? nil : result
    }
}
