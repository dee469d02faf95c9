/// A value the box keeps and never shows: a password in the config (`mqtt.password`,
/// `wifi.hotspot_password`, any key a board reads with `ConfigReader.secret`). Printed,
/// interpolated or dumped it says only that it is set, so no answer, refusal, log line or
/// status can carry it by accident; `revealed` is for the one place that hands it on (the
/// broker's login, the hotspot).
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible {
    /// What every door shows instead of a secret's value.
    public static let shown = "(set; not shown)"

    public let revealed: String

    public init(_ value: String) { revealed = value }

    public var description: String { Self.shown }
    public var debugDescription: String { Self.shown }
}
